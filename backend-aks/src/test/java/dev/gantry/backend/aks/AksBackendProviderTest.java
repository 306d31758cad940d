package dev.gantry.backend.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
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
    void createSaysTheBackendIsUnavailableAndWhatToUseInstead() {
        AksBackendProvider provider = new AksBackendProvider();
        GantryException e = assertThrows(GantryException.class,
                () -> provider.create(BackendConfig.empty("aks"), null));
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("backend: manual"), e.getMessage());
        assertEquals(provider.unavailableReason().orElseThrow(), e.getMessage());
    }
}
