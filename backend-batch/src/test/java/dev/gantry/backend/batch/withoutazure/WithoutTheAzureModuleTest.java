package dev.gantry.backend.batch.withoutazure;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import java.io.File;
import java.net.MalformedURLException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * gantry-azure is optional for the batch backend: a shared-key account without secrets runs with the module absent, as
 * a library user who did not add it has it. The round trip runs in a class loader over this test's class path less
 * the module (its jar, or its build's classes); the Batch fake runs here, outside it.
 */
class WithoutTheAzureModuleTest {
    private static final String REGION = "eastus";

    @Test
    void aSharedKeyAccountSubmitsAndFollowsAJobWithoutGantryAzure() throws Exception {
        try (BatchFake fake = new BatchFake(new BatchFakeOptions().account(REGION).auth(true, false)
                .autoscaleInterval(java.time.Duration.ofMillis(100)));
             URLClassLoader withoutAzure = new URLClassLoader(classPathWithoutAzure(),
                     ClassLoader.getPlatformClassLoader())) {
            assertThrows(ClassNotFoundException.class,
                    () -> withoutAzure.loadClass("dev.gantry.azure.batch.BatchManagement"), "the module is left out");
            @SuppressWarnings("unchecked")
            Function<Map<String, String>, String> roundTrip = (Function<Map<String, String>, String>) withoutAzure
                    .loadClass(SharedKeyRoundTrip.class.getName()).getConstructor().newInstance();
            Thread thread = Thread.currentThread();
            ClassLoader previous = thread.getContextClassLoader();
            thread.setContextClassLoader(withoutAzure);
            try {
                assertEquals("SUCCEEDED", roundTrip.apply(Map.of("url", fake.url(), "region", REGION,
                        "key", fake.accountKey())));
            } finally {
                thread.setContextClassLoader(previous);
            }
        }
    }

    /** This JVM's class path less gantry-azure: its jar from a repository, or its module's build output. */
    private static URL[] classPathWithoutAzure() throws MalformedURLException {
        List<URL> urls = new ArrayList<>();
        for (String entry : System.getProperty("java.class.path").split(File.pathSeparator)) {
            Path path = Path.of(entry).toAbsolutePath();
            String name = path.getFileName() == null ? "" : path.getFileName().toString();
            boolean azureJar = name.startsWith("gantry-azure-");
            boolean azureBuild = path.getParent() != null && path.getParent().getFileName() != null
                    && path.getParent().getFileName().toString().equals("target")
                    && path.getParent().getParent() != null
                    && path.getParent().getParent().getFileName().toString().equals("azure");
            if (!azureJar && !azureBuild) {
                urls.add(path.toUri().toURL());
            }
        }
        return urls.toArray(URL[]::new);
    }
}
