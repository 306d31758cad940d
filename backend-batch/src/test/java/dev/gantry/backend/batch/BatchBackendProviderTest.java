package dev.gantry.backend.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import java.util.Optional;
import java.util.ServiceLoader;
import org.junit.jupiter.api.Test;

class BatchBackendProviderTest {
    @Test
    void isDiscoveredByServiceLoaderUnderItsName() {
        boolean found = ServiceLoader.load(BackendProvider.class).stream()
                .anyMatch(p -> p.type() == BatchBackendProvider.class && p.get().name().equals("batch"));
        assertTrue(found, "META-INF/services must register BatchBackendProvider");
    }

    @Test
    void isAvailableAndDeclaresWhatBatchPoolsDo() {
        BatchBackendProvider provider = new BatchBackendProvider();
        assertEquals(Optional.empty(), provider.unavailableReason());
        Capabilities caps = provider.capabilities();
        assertTrue(caps.multiNode() && caps.containers() && caps.nativeDependencies() && caps.followLogs(),
                caps.toString());
        assertEquals(EvictionHandling.REQUEUES, caps.evictions());
        assertTrue(caps.spot() && caps.placesByRegion() && !caps.mergedLogs(), caps.toString());
    }

    @Test
    void createWithoutSettingsIsAConfigProblemNamingTheAccounts() {
        GantryException e = assertThrows(GantryException.class,
                () -> new BatchBackendProvider().create(BackendConfig.empty("batch"), null));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code(), e.getMessage());
        assertTrue(e.getMessage().contains("backends.batch.accounts"), e.getMessage());
    }
}
