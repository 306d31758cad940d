package dev.gantry.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.File;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import javax.xml.parsers.DocumentBuilderFactory;
import javax.xml.xpath.XPathFactory;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.helpers.NOPLoggerFactory;
import org.w3c.dom.Document;

/**
 * What importing gantry-bom gives a program (this module imports it as docs/library.md says): SLF4J 2 with the
 * binding it names, so no "SLF4J:" warning at start, and the versions Gantry is built and tested with.
 */
class GantryBomTest {
    @Test
    void theProgramsSlf4jIsVersion2WithTheDocumentedBinding() {
        assertEquals("2.0", LoggerFactory.class.getPackage().getImplementationVersion().substring(0, 3),
                "slf4j-api " + LoggerFactory.class.getPackage().getImplementationVersion()
                + " on the class path: a 1.7 API finds no SLF4J 2 binding and prints a warning");
        assertFalse(LoggerFactory.getILoggerFactory() instanceof NOPLoggerFactory,
                "slf4j found no binding: " + LoggerFactory.getILoggerFactory().getClass().getName());
        assertEquals("org.slf4j.simple.SimpleLoggerFactory", LoggerFactory.getILoggerFactory().getClass().getName());
    }

    @Test
    void aProgramThatImportsTheBomGetsTheAzureSdkGantryIsBuiltWith() throws IOException {
        // bom-user takes gantry-azure through the BOM alone, as a program's build does (this module inherits Gantry's
        // parent, so it cannot show that); the azure module's build wrote what Gantry itself resolves. Without the
        // BOM's Azure pins a program got what each Azure library declares, such as azure-core-management 1.19.2
        // under Gantry's 1.19.4.
        Map<String, String> gantrys = repositoryVersions(Path.of("../azure/target/gantry-azure.classpath"));
        Map<String, String> programs = repositoryVersions(Path.of("bom-user/target/bom-user.classpath"));
        assertTrue(gantrys.containsKey("azure-core-management"), "no azure-core-management in " + gantrys.keySet());
        List<String> different = new ArrayList<>();
        for (String artifact : gantrys.keySet()) {
            if (!gantrys.get(artifact).equals(programs.get(artifact))) {
                different.add(artifact + ": Gantry's build " + gantrys.get(artifact) + ", the program "
                        + programs.get(artifact));
            }
        }
        assertEquals(List.of(), different, "what gantry-azure brings, as Gantry's build and a program importing "
                + "gantry-bom resolve it");
    }

    /**
     * Artifact id to version of each jar of a class path file that lies in a Maven repository
     * (.../ARTIFACT/VERSION/ARTIFACT-VERSION.jar); this build's own modules, from their target folders, are left out.
     */
    private static Map<String, String> repositoryVersions(Path classpathFile) throws IOException {
        Map<String, String> versions = new TreeMap<>();
        for (String entry : Files.readString(classpathFile, StandardCharsets.UTF_8).trim().split(File.pathSeparator)) {
            Path jar = Path.of(entry);
            Path versionDir = jar.getParent();
            Path artifactDir = versionDir == null ? null : versionDir.getParent();
            if (artifactDir == null || !jar.getFileName().toString().startsWith(
                    artifactDir.getFileName() + "-" + versionDir.getFileName())) {
                continue;
            }
            versions.put(artifactDir.getFileName().toString(), versionDir.getFileName().toString());
        }
        assertFalse(versions.isEmpty(), "no jar of a Maven repository in " + classpathFile);
        return versions;
    }

    @Test
    void theBuildTakesTheBomsVersionsWithoutCopies() throws Exception {
        // The BOM is standalone, and the parent inherits from it: a property of the BOM's set again in the parent
        // would build Gantry with another version than a program gets.
        Document parent = xml(Path.of("../pom.xml"));
        assertEquals("gantry-bom", text(parent, "parent/artifactId"), "the parent of ../pom.xml");
        for (String property : new String[] {"jackson.version", "slf4j.version", "azure-sdk-bom.version",
            "azure-resourcemanager.version", "azure-batch.version"}) {
            assertFalse(text(xml(Path.of("../bom/pom.xml")), "properties/" + property).isEmpty(),
                    property + " is missing from the BOM");
            assertEquals("", text(parent, "properties/" + property), property + " set again in the parent");
        }
    }

    private static Document xml(Path pom) throws Exception {
        return DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
    }

    /** The text of the project's element at PATH (names separated by '/'), or "" when there is none. */
    private static String text(Document pom, String path) throws Exception {
        StringBuilder xpath = new StringBuilder("/*[local-name()='project']");
        for (String name : path.split("/")) {
            xpath.append("/*[local-name()='").append(name).append("']");
        }
        return XPathFactory.newInstance().newXPath().evaluate(xpath.toString(), pom).trim();
    }
}
