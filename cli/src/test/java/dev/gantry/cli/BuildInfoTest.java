package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Properties;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build step src/build/BuildInfo.java, run as the build runs it (Java's source-file launcher): the commit
 * outside a git checkout, the installation's class path file and the third-party listing from a local repository.
 */
class BuildInfoTest {
    @TempDir
    Path dir;

    @Test
    void outsideAGitCheckoutTheCommitIsUnknownAndTheBuildGoesOn() throws Exception {
        Path notACheckout = Files.createDirectories(dir.resolve("source"));
        Path classes = dir.resolve("classes");
        Path dist = dir.resolve("dist");
        Result result = run("1.2.3", notACheckout, classes, dist, "");
        assertEquals(0, result.code, result.output);
        Properties properties = new Properties();
        try (var in = Files.newInputStream(classes.resolve("dev/gantry/cli/build.properties"))) {
            properties.load(in);
        }
        assertEquals("1.2.3", properties.getProperty("version"));
        assertEquals("unknown", properties.getProperty("commit"));
        assertEquals(Files.readString(classes.resolve("dev/gantry/cli/build.properties")),
                Files.readString(dist.resolve("gantry-build.properties")));
    }

    @Test
    void classPathFileAndLicenseListingComeFromTheJarsAndTheirPoms() throws Exception {
        Path repository = dir.resolve("repository");
        // A jar whose POM declares no license, but whose parent does (as most projects do).
        Path jar = write(repository.resolve("org/example/widgets/2.0/widgets-2.0.jar"), "not a real jar");
        write(repository.resolve("org/example/widgets/2.0/widgets-2.0.pom"), """
                <project><parent><groupId>org.example</groupId><artifactId>example-parent</artifactId>
                <version>7</version></parent><artifactId>widgets</artifactId><name>Example Widgets</name></project>
                """);
        write(repository.resolve("org/example/example-parent/7/example-parent-7.pom"), """
                <project><groupId>org.example</groupId><artifactId>example-parent</artifactId><version>7</version>
                <licenses><license><name>Apache-2.0</name><url>https://www.apache.org/licenses/LICENSE-2.0</url>
                </license></licenses></project>
                """);
        // Gantry's own modules are not third-party.
        Path own = write(repository.resolve("dev/gantry/gantry-api/1.2.3/gantry-api-1.2.3.jar"), "jar");
        write(repository.resolve("dev/gantry/gantry-api/1.2.3/gantry-api-1.2.3.pom"),
                "<project><groupId>dev.gantry</groupId><artifactId>gantry-api</artifactId></project>");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path dist = dir.resolve("dist");
        String classpath = String.join(java.io.File.pathSeparator, classes.toString(), own.toString(), jar.toString());
        Result result = run("1.2.3", dir, classes, dist, classpath);
        assertEquals(0, result.code, result.output);
        assertEquals(List.of("gantry-cli-1.2.3.jar", "gantry-api-1.2.3.jar", "widgets-2.0.jar"),
                Files.readAllLines(dist.resolve("classpath")));
        String listing = Files.readString(dist.resolve("THIRD-PARTY.txt"));
        assertTrue(listing.contains("org.example:widgets:2.0\n  Example Widgets (lib/widgets-2.0.jar)\n"
                + "  License: Apache-2.0 - https://www.apache.org/licenses/LICENSE-2.0\n"), listing);
        assertTrue(!listing.contains("gantry-api"), listing);
        assertTrue(listing.endsWith("1 third-party jars.\n"), listing);
    }

    @Test
    void aModuleOfThisBuildThatDeclaresALicenseIsListedAsThirdParty() throws Exception {
        // picocli-java17: picocli's sources compiled by this build; its POM names picocli's license, and its name
        // names picocli's version through the parent POM's property.
        Path modules = dir.resolve("build");
        write(modules.resolve("pom.xml"), """
                <project><groupId>dev.gantry</groupId><artifactId>gantry-parent</artifactId><version>1.2.3</version>
                <properties><picocli.version>4.7.7</picocli.version></properties></project>
                """);
        write(modules.resolve("picocli-java17/pom.xml"), """
                <project><parent><groupId>dev.gantry</groupId><artifactId>gantry-parent</artifactId>
                <version>1.2.3</version></parent><artifactId>picocli-java17</artifactId>
                <name>picocli ${picocli.version}, compiled for Java 17</name><url>https://picocli.info</url>
                <licenses><license><name>Apache-2.0</name></license></licenses></project>
                """);
        Path jar = write(modules.resolve("picocli-java17/target/picocli-java17-1.2.3.jar"), "jar");
        // A module of ours without a license of its own is Gantry itself.
        write(modules.resolve("gantry-core/pom.xml"), """
                <project><parent><groupId>dev.gantry</groupId><artifactId>gantry-parent</artifactId>
                <version>1.2.3</version></parent><artifactId>gantry-core</artifactId></project>
                """);
        Path core = write(modules.resolve("gantry-core/target/gantry-core-1.2.3.jar"), "jar");
        Path classes = Files.createDirectories(dir.resolve("classes"));
        Path dist = dir.resolve("dist");
        Result result = run("1.2.3", dir, classes, dist, String.join(java.io.File.pathSeparator, classes.toString(),
                core.toString(), jar.toString()));
        assertEquals(0, result.code, result.output);
        String listing = Files.readString(dist.resolve("THIRD-PARTY.txt"));
        assertTrue(listing.contains("dev.gantry:picocli-java17:1.2.3\n"
                + "  picocli 4.7.7, compiled for Java 17 (lib/picocli-java17-1.2.3.jar)\n  https://picocli.info\n"
                + "  License: Apache-2.0\n"), listing);
        assertTrue(!listing.contains("gantry-core"), listing);
        assertTrue(listing.endsWith("1 third-party jars.\n"), listing);
    }

    @Test
    void aJarWithoutItsPomFailsTheBuildNamingTheJar() throws Exception {
        Path jar = write(dir.resolve("repository/org/example/lonely/1.0/lonely-1.0.jar"), "jar");
        Result result = run("1.2.3", dir, dir.resolve("classes"), dir.resolve("dist"), jar.toString());
        assertTrue(result.code != 0, result.output);
        assertTrue(result.output.contains("no POM next to " + jar), result.output);
    }

    private record Result(int code, String output) {
    }

    private static Result run(String version, Path basedir, Path classes, Path dist, String classpath)
            throws IOException, InterruptedException {
        Path java = Path.of(System.getProperty("java.home"), "bin", "java");
        Process process = new ProcessBuilder(java.toString(), Path.of("src/build/BuildInfo.java").toAbsolutePath()
                .toString(), version, basedir.toString(), classes.toString(), dist.toString(), classpath)
                .redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(120, TimeUnit.SECONDS), "BuildInfo did not finish");
        return new Result(process.exitValue(), output);
    }

    private static Path write(Path file, String text) throws IOException {
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }
}
