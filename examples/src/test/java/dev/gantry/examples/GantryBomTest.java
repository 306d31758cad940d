package dev.gantry.examples;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import java.nio.file.Path;
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
    void theBomManagesTheVersionsTheBuildUses() throws Exception {
        // The BOM is standalone (no parent), so it repeats the parent's versions; these must not drift apart.
        for (String property : new String[] {"jackson.version", "slf4j.version"}) {
            assertEquals(property(Path.of("../pom.xml"), property), property(Path.of("../bom/pom.xml"), property),
                    property + " of the BOM and of the parent");
        }
    }

    private static String property(Path pom, String name) throws Exception {
        Document document = DocumentBuilderFactory.newInstance().newDocumentBuilder().parse(pom.toFile());
        String value = XPathFactory.newInstance().newXPath().evaluate("/*[local-name()='project']/*[local-name()="
                + "'properties']/*[local-name()='" + name + "']", document).trim();
        assertFalse(value.isEmpty(), name + " is missing from " + pom);
        return value;
    }
}
