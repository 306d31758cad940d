package dev.gantry.testing;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import javax.tools.JavaCompiler;
import javax.tools.ToolProvider;

/**
 * Jars built by a test from a few lines of Java, so that no binary jar is committed: a backend plugin, or a library
 * a plugin bundles. Sources compile against the test's own class path (Gantry's API among it) with the JDK's
 * compiler; resources (a {@code META-INF/services} file) and manifest attributes are added as given.
 */
public final class TestJars {
    private final Map<String, String> sources = new LinkedHashMap<>();
    private final Map<String, String> resources = new LinkedHashMap<>();
    private final Map<String, String> manifest = new LinkedHashMap<>();

    public static TestJars builder() {
        return new TestJars();
    }

    /**
     * A backend plugin: one {@code BackendProvider} named {@code backend}, class {@code PACKAGE.Provider}, registered
     * for ServiceLoader. {@code description} is a Java expression (a string literal, or code that reports what the
     * plugin sees); {@code staticInit} runs when the class initialises (empty for none). Creating it fails: these
     * plugins are listed, never used.
     */
    public static TestJars backendPlugin(String pkg, String backend, String description, String staticInit) {
        String source = """
                package %1$s;

                import dev.gantry.api.backend.*;
                import java.util.List;

                public final class Provider implements BackendProvider {
                    static { %4$s }

                    public String name() { return "%2$s"; }
                    public String description() { return %3$s; }
                    public Capabilities capabilities() { return Capabilities.builder().build(); }
                    public List<ConfigKey> configKeys() { return List.of(); }
                    public Backend create(BackendConfig config, BackendContext context) {
                        throw new UnsupportedOperationException("a test plugin");
                    }
                }
                """.formatted(pkg, backend, description, staticInit);
        return builder().source(pkg + ".Provider", source)
                .resource("META-INF/services/dev.gantry.api.backend.BackendProvider", pkg + ".Provider\n");
    }

    /** A class by its fully qualified name, and its source. */
    public TestJars source(String className, String source) {
        sources.put(className, source);
        return this;
    }

    /** A resource at this path inside the jar, e.g. {@code META-INF/services/...}. */
    public TestJars resource(String path, String text) {
        resources.put(path, text);
        return this;
    }

    /** A main attribute of the manifest, e.g. {@code Implementation-Version}. */
    public TestJars manifest(String attribute, String value) {
        manifest.put(attribute, value);
        return this;
    }

    /** Compiles the sources and writes the jar; a compile error fails the test with the compiler's messages. */
    public Path writeTo(Path jar) {
        try {
            Path work = Files.createTempDirectory("gantry-test-jar");
            Path src = work.resolve("src");
            Path classes = Files.createDirectories(work.resolve("classes"));
            List<String> args = new ArrayList<>(List.of("-d", classes.toString(), "-classpath",
                    System.getProperty("java.class.path"), "--release", "17", "-proc:none"));
            for (Map.Entry<String, String> source : sources.entrySet()) {
                Path file = src.resolve(source.getKey().replace('.', '/') + ".java");
                Files.createDirectories(file.getParent());
                Files.writeString(file, source.getValue());
                args.add(file.toString());
            }
            if (!sources.isEmpty()) {
                JavaCompiler javac = ToolProvider.getSystemJavaCompiler();
                ByteArrayOutputStream messages = new ByteArrayOutputStream();
                int code = javac.run(null, messages, messages, args.toArray(String[]::new));
                assertTrue(code == 0, "the test jar's sources do not compile: " + messages.toString(UTF_8));
            }
            for (Map.Entry<String, String> resource : resources.entrySet()) {
                Path file = classes.resolve(resource.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, resource.getValue());
            }
            write(classes, jar);
            deleteTree(work);
            return jar;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private void write(Path classes, Path jar) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        manifest.forEach((name, value) -> mf.getMainAttributes().put(new Attributes.Name(name), value));
        try (OutputStream file = Files.newOutputStream(jar); JarOutputStream out = new JarOutputStream(file, mf);
             Stream<Path> tree = Files.walk(classes)) {
            for (Path path : tree.filter(Files::isRegularFile).sorted().toList()) {
                out.putNextEntry(new JarEntry(classes.relativize(path).toString().replace('\\', '/')));
                out.write(Files.readAllBytes(path));
                out.closeEntry();
            }
        }
    }

    private static void deleteTree(Path root) throws IOException {
        try (Stream<Path> tree = Files.walk(root)) {
            for (Path path : tree.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(path);
            }
        }
    }

    /** Bytes that are no jar at all: what a truncated download leaves. */
    public static Path corrupt(Path jar) {
        try {
            return Files.write(jar, "PK\u0003\u0004 not really a jar".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
