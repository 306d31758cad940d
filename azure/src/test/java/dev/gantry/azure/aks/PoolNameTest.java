package dev.gantry.azure.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PoolNameTest {
    static final List<String> SIZES = List.of("Standard_NC24ads_A100_v4", "Standard_ND96isr_H100_v5",
            "Standard_NC4as_T4_v3", "Standard_D4s_v5", "Standard_E8s_v5", "Standard_ND96asr_v4");

    @Test
    void theNameOfASizeAndPriorityNeverChanges() {
        // Pinned (printf %s standard_nc24ads_a100_v4/spot | sha256sum): another name for the same size after an
        // upgrade would make Gantry create a second pool.
        assertEquals("g3ab878f3d14", PoolName.of("Standard_NC24ads_A100_v4", Priority.SPOT));
        assertEquals("ge87b02bbdd5", PoolName.of("Standard_NC24ads_A100_v4", Priority.REGULAR));
    }

    @Test
    void sizesAreComparedWithoutCaseAsAzureDoes() {
        assertEquals(PoolName.of("Standard_NC24ads_A100_v4", Priority.SPOT),
                PoolName.of(" standard_nc24ads_a100_v4 ", Priority.SPOT));
    }

    @Test
    void everyNameIsOneAksAcceptsAndEverySizeAndPriorityHasItsOwn() {
        Set<String> names = new HashSet<>();
        for (String size : SIZES) {
            for (Priority priority : Priority.values()) {
                String name = PoolName.of(size, priority);
                assertEquals(12, name.length(), name);
                assertTrue(PoolName.AKS_NAME.matcher(name).matches(), name);
                names.add(name);
            }
        }
        assertEquals(SIZES.size() * 2, names.size(), "no two sizes or priorities share a pool: " + names);
        assertNotEquals(PoolName.of(SIZES.get(0), Priority.SPOT), PoolName.of(SIZES.get(0), Priority.REGULAR));
    }
}
