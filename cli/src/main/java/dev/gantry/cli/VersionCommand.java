package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.CatalogInfo;
import dev.gantry.Gantry;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "version", description = "Print Gantry's version, the commit it was built from, its embedded "
        + "catalog and the Java runtime it runs on.")
final class VersionCommand extends Verb {
    @Override
    public Integer call() {
        String version = version();
        String commit = commit();
        // The embedded snapshot, not the refresh cache: what this build ships. Loading it costs a few tens of
        // milliseconds and no Azure SDK class.
        CatalogInfo catalog = Gantry.embeddedCatalog();
        String java = System.getProperty("java.version");
        String vendor = System.getProperty("java.vendor");
        String javaHome = System.getProperty("java.home");
        String os = System.getProperty("os.name") + " " + System.getProperty("os.arch");
        if (output.json()) {
            ObjectNode node = Json.object();
            node.put("version", version);
            node.put("commit", commit);
            node.put("java", java);
            node.put("javaVendor", vendor);
            node.put("javaHome", javaHome);
            node.put("os", os);
            ObjectNode embedded = node.putObject("catalog");
            embedded.put("source", catalog.source());
            embedded.put("date", catalog.date().toString());
            Json.print(env().out(), node);
        } else {
            env().out().println(line());
            env().out().println("catalog: " + catalog.source() + ", " + catalog.date() + " (embedded)");
            env().out().println("java:    " + java + " (" + vendor + "), " + javaHome);
            env().out().println("os:      " + os);
        }
        return Main.OK;
    }

    static String version() {
        return Gantry.version();
    }

    /** The one line of {@code gantry --version}: the version and the commit it was built from. */
    static String line() {
        return BuildFacts.versionLine();
    }

    /** {@code gantry --version} when the command model is built (an option after others). */
    static final class Line implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }

    /** The git commit this CLI was built from; {@code unknown} when built outside a git checkout. */
    static String commit() {
        return BuildFacts.commit();
    }
}
