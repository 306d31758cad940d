package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.parallel.ResourceLock;
import org.junit.jupiter.api.parallel.Resources;

@ResourceLock(Resources.SYSTEM_PROPERTIES)
class CommandFactoryTest {
    private static final String NO_CLOSURES = "picocli.disable.closures";

    @Test
    void picocliIsToldNotToLookForGroovy() {
        String before = System.clearProperty(NO_CLOSURES);
        try {
            new CommandFactory(root());
            // Without it, picocli's default factory looks up groovy.lang.Closure, a miss that opens every jar.
            assertEquals("true", System.getProperty(NO_CLOSURES));
        } finally {
            restore(before);
        }
    }

    @Test
    void aValueTheUserSetIsKept() {
        String before = System.setProperty(NO_CLOSURES, "false");
        try {
            new CommandFactory(root());
            assertEquals("false", System.getProperty(NO_CLOSURES));
        } finally {
            restore(before);
        }
    }

    private static GantryCommand root() {
        StringWriter sink = new StringWriter();
        return new GantryCommand(new CliEnvironment(new PrintWriter(sink), new PrintWriter(sink), Map.of(),
                Path.of(""), Path.of("")));
    }

    private static void restore(String value) {
        if (value == null) {
            System.clearProperty(NO_CLOSURES);
        } else {
            System.setProperty(NO_CLOSURES, value);
        }
    }
}
