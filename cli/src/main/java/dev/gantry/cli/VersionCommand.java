package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.core.Gantry;
import picocli.CommandLine;
import picocli.CommandLine.Command;

@Command(name = "version", description = "Print Gantry's version.")
final class VersionCommand extends Verb {
    @Override
    public Integer call() {
        String version = version();
        String java = System.getProperty("java.version");
        String os = System.getProperty("os.name") + " " + System.getProperty("os.arch");
        if (output.json()) {
            ObjectNode node = Json.object();
            node.put("version", version);
            node.put("java", java);
            node.put("os", os);
            Json.print(env().out(), node);
        } else {
            env().out().println("gantry " + version + " (Java " + java + ", " + os + ")");
        }
        return Main.OK;
    }

    static String version() {
        return Gantry.version();
    }

    /** The one line of {@code gantry --version}. */
    static String line() {
        return "gantry " + version();
    }

    /** {@code gantry --version} when the command model is built (an option after others). */
    static final class Line implements CommandLine.IVersionProvider {
        @Override
        public String[] getVersion() {
            return new String[] {line()};
        }
    }
}
