package dev.gantry.backend.cyclecloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
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
    void createSaysTheBackendIsUnavailableAndWhatToUseInstead() {
        CycleCloudBackendProvider provider = new CycleCloudBackendProvider();
        GantryException e = assertThrows(GantryException.class,
                () -> provider.create(BackendConfig.empty("cyclecloud"), null));
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("backend: manual"), e.getMessage());
        assertEquals(provider.unavailableReason().orElseThrow(), e.getMessage());
    }
}
