package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.backend.aks.internal.AksSettings;
import java.util.Set;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class AksBackendProviderTest {
    @Test
    void isDiscoveredByServiceLoaderUnderItsName() {
        boolean found = ServiceLoader.load(BackendProvider.class).stream()
                .anyMatch(p -> p.type() == AksBackendProvider.class && p.get().name().equals("aks"));
        assertTrue(found, "META-INF/services must register AksBackendProvider");
    }

    @Test
    void capabilitiesAreTheIssuesList() {
        Capabilities capabilities = new AksBackendProvider().capabilities();
        assertTrue(capabilities.multiNode() && capabilities.containers() && capabilities.spot()
                && capabilities.followLogs() && capabilities.mergedLogs());
        assertEquals(Set.of(GpuVendor.NVIDIA, GpuVendor.AMD), capabilities.gpuVendors());
        assertEquals(EvictionHandling.REQUEUES, capabilities.evictions());
        assertFalse(capabilities.nativeDependencies(), "core sequences dependent steps");
        assertFalse(capabilities.placesByRegion(), "one cluster is one region");
    }

    @Test
    void configKeysAreTheSettingsKeys() {
        assertEquals(AksSettings.KEYS, new AksBackendProvider().configKeys());
        assertTrue(new AksBackendProvider().configKeys().stream().anyMatch(k -> k.name().equals("namespace")
                && k.required()));
    }

    /**
     * {@code gantry backends} lists every provider's keys and capabilities; the Kubernetes client is loaded only when
     * the backend is used (StartupClassesTest holds the CLI to it).
     */
    @Test
    void keysAndCapabilitiesLoadNoKubernetesClientClass() throws Exception {
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-Xlog:class+load=info", "-cp",
                System.getProperty("java.class.path"), ListKeys.class.getName()).redirectErrorStream(true).start();
        List<String> lines = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8).lines()
                .toList();
        assertEquals(0, process.waitFor(), String.join("\n", lines));
        assertTrue(lines.contains("keys " + AksSettings.KEYS.size()), "the listing ran");
        assertEquals(List.of(), lines.stream().filter(line -> line.contains(" io.fabric8.")).toList());
    }

    /** What {@code gantry backends} asks of the provider, in a JVM of its own. */
    static final class ListKeys {
        public static void main(String[] args) {
            AksBackendProvider provider = new AksBackendProvider();
            provider.capabilities();
            System.out.println("keys " + provider.configKeys().size());
        }
    }

    @Test
    void theProviderIsAvailableAndCreateBindsTheSettingsBeforeContactingAnything() {
        AksBackendProvider provider = new AksBackendProvider();
        assertEquals(java.util.Optional.empty(), provider.unavailableReason());
        GantryException e = assertThrows(GantryException.class,
                () -> provider.create(BackendConfig.empty("aks"), null));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().contains("namespace"), e.getMessage());
    }
}
