package dev.gantry.backend.cyclecloud.gridengine;

import dev.gantry.backend.cyclecloud.slurm.InjectionCorpus;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import org.junit.jupiter.api.Test;

/**
 * The shell-injection corpus through the real Grid Engine: through qsub (which reads {@code #$} lines anywhere in a
 * script), the batch script and the rank script, every argument and value arrives byte for byte and nothing runs.
 */
class GridEngineInjectionTest {
    @Test
    void hostileArgumentsAndValuesArriveByteForByteAndRunNothing() throws Exception {
        TestCluster cluster = TestCluster.get();
        InjectionCorpus.runThrough(cluster, cluster.gridEngineSettings());
    }
}
