package dev.gantry.backend.batch;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendProvider;
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
    void createSaysTheBackendIsUnavailableAndWhatToUseInstead() {
        BatchBackendProvider provider = new BatchBackendProvider();
        GantryException e = assertThrows(GantryException.class,
                () -> provider.create(BackendConfig.empty("batch"), null));
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("backend: manual"), e.getMessage());
        assertEquals(provider.unavailableReason().orElseThrow(), e.getMessage());
    }
}
