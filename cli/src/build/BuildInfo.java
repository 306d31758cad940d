import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import javax.xml.parsers.DocumentBuilderFactory;
import org.w3c.dom.Document;
import org.w3c.dom.Element;
import org.w3c.dom.Node;

/**
 * A build step of the CLI (run by exec-maven-plugin with Java's source-file launcher, so it needs no module of its
 * own and no plugin that is not already in the local repository). It writes:
 * <ul>
 * <li>{@code dev/gantry/cli/build.properties} into the classes directory: the version and the git commit the CLI
 * was built from ({@code unknown} outside a git checkout or without git: a build from a source archive must not
 * fail), read by {@code gantry version};</li>
 * <li>the same properties as the installation's build stamp ({@code lib/gantry-build.properties}), which the
 * launcher compares with the one its start-up archive was made for, so that an installation replaced in place by
 * another build of the same version does not keep a stale archive;</li>
 * <li>{@code classpath}, the installation's class path in Maven's order (one jar name a line, the CLI's first), the
 * same order as the checkout's {@code ./gantry} uses, so that both run the same classes;</li>
 * <li>{@code THIRD-PARTY.txt}, the third-party license listing of the jars the archive bundles, from each jar's POM
 * in the local Maven repository (following parent POMs, where most projects declare their license).</li>
 * </ul>
 * The last three go to DIST_DIR, from where the assembly (src/main/assembly/dist.xml) takes them.
 * Usage: {@code java BuildInfo.java VERSION BASEDIR CLASSES_DIR DIST_DIR CLASSPATH}
 */
public final class BuildInfo {
    private BuildInfo() {
    }

    public static void main(String[] args) throws Exception {
        if (args.length != 5) {
            throw new IllegalArgumentException("usage: BuildInfo VERSION BASEDIR CLASSES_DIR DIST_DIR CLASSPATH; got "
                    + args.length + " arguments");
        }
        String version = args[0];
        Path basedir = Path.of(args[1]);
        Path classes = Path.of(args[2]);
        Path dist = Path.of(args[3]);
        String classpath = args[4];

        String properties = "# Written by the build (cli/src/build/BuildInfo.java); read by gantry version.\n"
                + "version=" + version + "\n"
                + "commit=" + commit(basedir) + "\n"
                + "built=" + Instant.now() + "\n";
        Path file = classes.resolve("dev/gantry/cli/build.properties");
        Files.createDirectories(file.getParent());
        Files.writeString(file, properties, StandardCharsets.UTF_8);
        Files.createDirectories(dist);
        Files.writeString(dist.resolve("gantry-build.properties"), properties, StandardCharsets.UTF_8);
        Files.writeString(dist.resolve("classpath"), jarNames(classpath, classes, version), StandardCharsets.UTF_8);
        Files.writeString(dist.resolve("THIRD-PARTY.txt"), licenses(classpath), StandardCharsets.UTF_8);
    }

    /**
     * The jar names of the class path as the assembly names them in lib/: the CLI's classes directory is its jar,
     * every other entry keeps its file name (the assembly's outputFileNameMapping gives the same name).
     */
    static String jarNames(String classpath, Path classes, String version) {
        StringBuilder out = new StringBuilder();
        for (String item : classpath.split(java.io.File.pathSeparator)) {
            if (item.isBlank()) {
                continue;
            }
            Path entry = Path.of(item);
            if (entry.toAbsolutePath().normalize().equals(classes.toAbsolutePath().normalize())) {
                out.append("gantry-cli-").append(version).append(".jar\n");
            } else if (Files.isDirectory(entry)) {
                throw new IllegalStateException("installation class path: " + entry + " is a directory, not a jar;"
                        + " build with 'package' so that every module is a jar");
            } else {
                out.append(entry.getFileName()).append('\n');
            }
        }
        return out.toString();
    }

    /** The short commit of the checkout at {@code dir}, or {@code unknown} where git is missing or it is none. */
    static String commit(Path dir) {
        try {
            Process git = new ProcessBuilder("git", "rev-parse", "--short", "HEAD").directory(dir.toFile())
                    .redirectError(ProcessBuilder.Redirect.DISCARD).start();
            String out;
            try (InputStream in = git.getInputStream()) {
                out = new String(in.readAllBytes(), StandardCharsets.UTF_8).trim();
            }
            if (!git.waitFor(30, TimeUnit.SECONDS)) {
                git.destroyForcibly();
                return "unknown";
            }
            return git.exitValue() == 0 && out.matches("[0-9a-f]{4,40}") ? out : "unknown";
        } catch (IOException e) {
            return "unknown"; // no git on PATH
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return "unknown";
        }
    }

    /** One entry per bundled third-party jar, sorted by coordinates. */
    static String licenses(String classpath) throws Exception {
        TreeMap<String, String> entries = new TreeMap<>();
        for (String item : classpath.split(java.io.File.pathSeparator)) {
            if (item.isBlank()) {
                continue;
            }
            Path jar = Path.of(item);
            Path dir = jar.getParent();
            Path pom;
            Path repository;
            boolean ofThisBuild = Files.isDirectory(jar)
                    || (dir != null && dir.getFileName().toString().equals("target"));
            if (ofThisBuild) {
                // A module of this build (classes directory or freshly packaged jar): its pom.xml is beside target/.
                Path module = Files.isDirectory(jar) ? jar.getParent().getParent() : dir.getParent();
                pom = module.resolve("pom.xml");
                repository = null;
            } else {
                String artifactId = dir.getParent().getFileName().toString();
                String version = dir.getFileName().toString();
                pom = dir.resolve(artifactId + "-" + version + ".pom");
                repository = dir.getParent().getParent();
            }
            if (ofThisBuild && !Files.isRegularFile(pom)) {
                continue; // Gantry's own classes, compiled where no module POM is beside them
            }
            if (!Files.isRegularFile(pom)) {
                throw new IllegalStateException("third-party listing: no POM next to " + jar + " (expected " + pom
                        + "); the listing must name the license of every bundled jar");
            }
            Element project = parse(pom);
            String groupId = text(project, "groupId").or(() -> parentField(project, "groupId")).orElse("?");
            if (groupId.equals("dev.gantry") && child(project, "licenses") == null) {
                continue; // Gantry itself; a module of ours that declares a license is someone else's code (picocli)
            }
            String artifactId = text(project, "artifactId").orElseThrow();
            // The repository's directories name the version exactly; a module of this build has it from its POM.
            String version = repository != null ? dir.getFileName().toString()
                    : text(project, "version").or(() -> parentField(project, "version")).orElseThrow();
            if (repository != null) {
                for (int i = 0; i < groupId.split("\\.").length; i++) {
                    repository = repository.getParent();
                }
            }
            List<String> licenses = licenses(project, repository);
            StringBuilder entry = new StringBuilder();
            Path parentPom = parentPom(project, pom, repository);
            String name = rawText(project, "name").map(n -> interpolate(n, pom, parentPom)).orElse(artifactId);
            entry.append(groupId).append(':').append(artifactId).append(':').append(version).append('\n');
            entry.append("  ").append(name).append(" (lib/").append(jar.getFileName()).append(")\n");
            text(project, "url").ifPresent(url -> entry.append("  ").append(url).append('\n'));
            if (licenses.isEmpty()) {
                entry.append("  License: not declared in its POM or its parents' POMs\n");
            }
            for (String license : licenses) {
                entry.append("  License: ").append(license).append('\n');
            }
            // Keyed by file too: one artifact may bring several jars (classifiers, such as per-platform natives).
            entries.put(groupId + ":" + artifactId + " " + jar.getFileName(), entry.toString());
        }
        StringBuilder out = new StringBuilder();
        out.append("Third-party software bundled in lib/\n");
        out.append("====================================\n\n");
        out.append("Generated at build time from each jar's Maven POM (and its parent POMs where the license is\n");
        out.append("declared there). Gantry's own jars (gantry-*.jar) are not listed; see NOTICE.\n\n");
        entries.values().forEach(e -> out.append(e).append('\n'));
        out.append(entries.size()).append(" third-party jars.\n");
        return out.toString();
    }

    /**
     * A POM's text with {@code ${property}} replaced from the properties of the POM or of its parent beside it
     * (a module of this build names picocli's version through the parent's {@code picocli.version}).
     */
    private static String interpolate(String text, Path pom, Path parentPom) {
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("\\$\\{([^}]+)}").matcher(text);
        StringBuilder out = new StringBuilder();
        while (m.find()) {
            String value = null;
            for (Path p : new Path[] {pom, parentPom}) {
                Element properties = p == null || !Files.isRegularFile(p) ? null
                        : child(parseUnchecked(p), "properties");
                if (value == null && properties != null) {
                    value = text(properties, m.group(1)).orElse(null);
                }
            }
            if (value == null) {
                throw new IllegalStateException("third-party listing: " + pom + " names ${" + m.group(1)
                        + "}, which neither it nor its parent POM defines");
            }
            m.appendReplacement(out, java.util.regex.Matcher.quoteReplacement(value));
        }
        m.appendTail(out);
        return out.toString();
    }

    /** Where a POM's parent is: beside the module in this build, else in the local repository; null if none. */
    private static Path parentPom(Element project, Path pom, Path repository) {
        Element parent = child(project, "parent");
        if (parent == null) {
            return null;
        }
        if (repository == null) {
            return pom.toAbsolutePath().getParent().getParent().resolve("pom.xml");
        }
        String g = text(parent, "groupId").orElseThrow();
        String a = text(parent, "artifactId").orElseThrow();
        String v = text(parent, "version").orElseThrow();
        return repository.resolve(g.replace('.', '/')).resolve(a).resolve(v).resolve(a + "-" + v + ".pom");
    }

    /** The licenses a POM declares, else those of the nearest parent that declares any. */
    private static List<String> licenses(Element project, Path repository) throws Exception {
        Element current = project;
        for (int depth = 0; depth < 20 && current != null; depth++) {
            List<String> found = new ArrayList<>();
            Element licenses = child(current, "licenses");
            if (licenses != null) {
                for (Node n = licenses.getFirstChild(); n != null; n = n.getNextSibling()) {
                    if (n instanceof Element license && license.getTagName().equals("license")) {
                        String name = text(license, "name").orElse("(unnamed)");
                        found.add(text(license, "url").map(url -> name + " - " + url).orElse(name));
                    }
                }
            }
            if (!found.isEmpty()) {
                return found;
            }
            if (repository == null) {
                break; // a module of this build lists third-party code only where its own POM names the license
            }
            Path pom = parentPom(current, null, repository);
            if (pom == null) {
                break;
            }
            if (!Files.isRegularFile(pom)) {
                throw new IllegalStateException("third-party listing: the parent POM " + pom
                        + " is not in the local repository; the listing must name the license of every bundled jar");
            }
            current = parse(pom);
        }
        return List.of();
    }

    private static Optional<String> parentField(Element project, String field) {
        Element parent = child(project, "parent");
        return parent == null ? Optional.empty() : text(parent, field);
    }

    private static Element parseUnchecked(Path pom) {
        try {
            return parse(pom);
        } catch (Exception e) {
            throw new IllegalStateException("third-party listing: cannot read " + pom + ": " + e.getMessage(), e);
        }
    }

    private static Element parse(Path pom) throws Exception {
        DocumentBuilderFactory factory = DocumentBuilderFactory.newInstance();
        factory.setNamespaceAware(false);
        factory.setFeature("http://apache.org/xml/features/nonvalidating/load-external-dtd", false);
        Document document = factory.newDocumentBuilder().parse(pom.toFile());
        return document.getDocumentElement();
    }

    private static Element child(Element parent, String name) {
        for (Node n = parent.getFirstChild(); n != null; n = n.getNextSibling()) {
            if (n instanceof Element e && e.getTagName().equals(name)) {
                return e;
            }
        }
        return null;
    }

    /** An element's text as written, properties not replaced. */
    private static Optional<String> rawText(Element parent, String name) {
        Element e = child(parent, name);
        return e == null || e.getTextContent().isBlank() ? Optional.empty()
                : Optional.of(e.getTextContent().trim().replaceAll("\\s+", " "));
    }

    private static Optional<String> text(Element parent, String name) {
        Element e = child(parent, name);
        if (e == null) {
            return Optional.empty();
        }
        String value = e.getTextContent().trim().replaceAll("\\s+", " ");
        return value.isEmpty() || value.contains("${") ? Optional.empty() : Optional.of(value);
    }
}
