package dev.gantry.backend.cyclecloud.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class PartitionMapTest {
    private static PartitionMap bind(Map<String, String> values, List<String> problems) {
        BackendConfig config = new BackendConfig("cyclecloud", values);
        ConfigProblems found = new ConfigProblems(config);
        PartitionMap map = PartitionMap.bind(config, "partitions", "defaultPartition", found);
        found.problems().stream().map(Problem::toString).forEach(problems::add);
        return map;
    }

    private static PartitionMap bind(Map<String, String> values) {
        List<String> problems = new ArrayList<>();
        PartitionMap map = bind(values, problems);
        assertEquals(List.of(), problems);
        return map;
    }

    @Test
    void aSizeFindsItsPartitionWhateverItsCase() {
        PartitionMap map = bind(Map.of("partitions[0]", "Standard_ND96asr_v4=gpu"));
        assertEquals(Optional.of("gpu"), map.partitionFor("Standard_ND96asr_v4"));
        assertEquals(Optional.of("gpu"), map.partitionFor("STANDARD_ND96ASR_V4"));
        assertEquals(Optional.of("gpu"), map.partitionFor("standard_nd96asr_v4"));
        assertTrue(map.lists("STANDARD_nd96asr_v4"));
    }

    @Test
    void anUnlistedSizeGoesToTheDefaultPartitionOrTheClustersDefault() {
        PartitionMap withFallback = bind(Map.of("partitions", "Standard_ND96asr_v4=gpu", "defaultPartition",
                " htc "));
        assertEquals(Optional.of("htc"), withFallback.partitionFor("Standard_D4s_v5"));
        assertFalse(withFallback.lists("Standard_D4s_v5"), "covered by the fallback, not listed");
        PartitionMap without = bind(Map.of("partitions", "Standard_ND96asr_v4=gpu"));
        assertEquals(Optional.empty(), without.partitionFor("Standard_D4s_v5"));
        assertEquals(Optional.empty(), PartitionMap.clusterDefault().partitionFor("Standard_ND96asr_v4"));
    }

    @Test
    void itemsComeCommaSeparatedOrAsAListWithBlanksAroundTheirParts() {
        PartitionMap map = bind(Map.of("partitions", "Standard_ND96asr_v4 = gpu, Standard_F4s_v2=htc",
                "partitions[0]", " Standard_HB120rs_v3=hpc "));
        assertEquals(Map.of("standard_nd96asr_v4", "gpu", "standard_f4s_v2", "htc", "standard_hb120rs_v3", "hpc"),
                map.bySize());
    }

    @Test
    void aSizeListedTwiceForTheSamePartitionIsNoProblem() {
        assertEquals(Map.of("standard_f4s_v2", "htc"), bind(Map.of("partitions[0]", "Standard_F4s_v2=htc",
                "partitions[1]", "STANDARD_F4S_V2=htc")).bySize());
    }

    @Test
    void everyBadItemIsReportedAndTheRestStillBind() {
        List<String> problems = new ArrayList<>();
        PartitionMap map = bind(Map.of("partitions[0]", "=gpu", "partitions[1]", "Standard_F4s_v2=",
                "partitions[2]", "Standard_F4s_v2=htc queue", "partitions[3]", "4core=htc", "partitions[4]",
                "Standard_ND96asr_v4=gpu", "partitions[5]", "Standard_ND96asr_v4=gpu2"), problems);
        String fix = " is not VMSIZE=PARTITION; write e.g. Standard_ND96asr_v4=gpu (partition names: letters, "
                + "digits, '.', '_' and '-')";
        assertEquals(List.of("backends.cyclecloud.partitions: '=gpu'" + fix,
                "backends.cyclecloud.partitions: 'Standard_F4s_v2='" + fix,
                "backends.cyclecloud.partitions: 'Standard_F4s_v2=htc queue'" + fix,
                "backends.cyclecloud.partitions: '4core=htc'" + fix,
                "backends.cyclecloud.partitions: lists Standard_ND96asr_v4 twice, for gpu and gpu2; keep one"),
                problems);
        assertEquals(Map.of("standard_nd96asr_v4", "gpu2"), map.bySize());
    }

    @Test
    void aFallbackThatIsNotAPartitionNameIsRefused() {
        List<String> problems = new ArrayList<>();
        PartitionMap map = bind(Map.of("defaultPartition", "gpu;rm"), problems);
        assertEquals(List.of("backends.cyclecloud.defaultPartition: 'gpu;rm' is not a partition name; use letters, "
                + "digits, '.', '_' and '-' (sinfo lists the partitions)"), problems);
        assertEquals(Optional.empty(), map.fallback());
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new PartitionMap(Map.of(), Optional.of("gpu;rm")));
        assertEquals("not a partition name: gpu;rm", e.getMessage());
    }
}
