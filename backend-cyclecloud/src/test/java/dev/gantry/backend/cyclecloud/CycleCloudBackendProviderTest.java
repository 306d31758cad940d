package dev.gantry.backend.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import java.util.List;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class CycleCloudBackendProviderTest {
    @Test
    void isDiscoveredByServiceLoaderUnderItsName() {
        boolean found = ServiceLoader.load(BackendProvider.class).stream()
                .anyMatch(p -> p.type() == CycleCloudBackendProvider.class && p.get().name().equals("cyclecloud"));
        assertTrue(found, "META-INF/services must register CycleCloudBackendProvider");
    }

    @Test
    void isAvailableAndDeclaresWhatSlurmClustersDo() {
        CycleCloudBackendProvider provider = new CycleCloudBackendProvider();
        assertTrue(provider.unavailableReason().isEmpty());
        Capabilities caps = provider.capabilities();
        assertTrue(caps.multiNode() && caps.spot() && caps.nativeDependencies() && caps.followLogs(), caps.toString());
        assertEquals(EvictionHandling.REQUEUES, caps.evictions());
    }

    @Test
    void createWithoutSettingsNamesEveryRequiredKey() {
        GantryException e = assertThrows(GantryException.class,
                () -> new CycleCloudBackendProvider().create(BackendConfig.empty("cyclecloud"), null));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        for (String key : List.of("backends.cyclecloud.address", "backends.cyclecloud.user",
                "backends.cyclecloud.identityFile", "backends.cyclecloud.workDir")) {
            assertTrue(e.getMessage().contains(key + ": "), key + " in " + e.getMessage());
        }
    }
}
