package dev.gantry.backend.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * The Batch SDK is used through its protocol layer only. Its {@code *Operations} wrappers ({@code TaskOperations},
 * {@code PoolOperations}, ...) hang in {@code TaskOperations.createTasks} on Java 17, share a halved chunk size in a
 * static field, and put a UUID into options that client-runtime's validator cannot read without {@code --add-opens};
 * {@code BatchClient.open(BatchCredentials)} builds the SDK's own client, which retries 5xx three times unseen. This
 * reads the constant pool of every class the module ships (every type and method a class refers to is named there)
 * and fails on any of them.
 */
class SdkWrappersStayUnusedTest {
    /** A wrapper class of {@code com.microsoft.azure.batch} itself, never of {@code .protocol}. */
    private static final Pattern WRAPPER = Pattern.compile("com/microsoft/azure/batch/([A-Za-z]+Operations)\\b");
    private static final String OPEN_WITH_CREDENTIALS =
            "(Lcom/microsoft/azure/batch/auth/BatchCredentials;)Lcom/microsoft/azure/batch/BatchClient;";

    @Test
    void noShippedClassUsesAnOperationsWrapperOrTheSdksOwnClient() throws Exception {
        Path classes = Path.of(BatchBackendProvider.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        assertTrue(Files.isDirectory(classes.resolve("dev/gantry/backend/batch/internal/rest")),
                "the module's classes, rest client included, are at " + classes);
        assertEquals(List.of(), violations(classes));
    }

    @Test
    void theCheckCatchesAPlantedViolation() throws Exception {
        Path testClasses = testClasses();
        List<String> found = violations(testClasses.resolve("dev/gantry/backend/batch/violating"));
        assertEquals(List.of("CreatesTasksThroughTheWrapper.class uses BatchClient.open(BatchCredentials)",
                "CreatesTasksThroughTheWrapper.class uses TaskOperations"), found);
    }

    private static List<String> violations(Path root) throws IOException {
        List<String> found = new ArrayList<>();
        try (Stream<Path> files = Files.walk(root)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".class")).sorted().toList()) {
                // Constant-pool strings are modified UTF-8; class and descriptor names are ASCII, so Latin-1 reads them.
                String pool = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
                TreeSet<String> uses = new TreeSet<>();
                Matcher wrapper = WRAPPER.matcher(pool);
                while (wrapper.find()) {
                    uses.add(wrapper.group(1));
                }
                if (pool.contains(OPEN_WITH_CREDENTIALS)) {
                    uses.add("BatchClient.open(BatchCredentials)");
                }
                String name = root.relativize(file).toString();
                uses.forEach(use -> found.add(name + " uses " + use));
            }
        }
        return found;
    }

    private static Path testClasses() throws URISyntaxException {
        return Path.of(SdkWrappersStayUnusedTest.class.getProtectionDomain().getCodeSource().getLocation().toURI());
    }
}
