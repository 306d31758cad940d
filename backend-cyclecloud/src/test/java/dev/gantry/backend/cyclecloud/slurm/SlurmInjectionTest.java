package dev.gantry.backend.cyclecloud.slurm;


import org.junit.jupiter.api.Test;

/**
 * The shell-injection corpus through the real cluster: every argument and environment value, each made to run a
 * command if any shell on the way (the SSH login shell, submit.sh, the batch script, srun, the rank script) read it
 * as code, arrives byte for byte, and none of the commands it carries runs.
 */
class SlurmInjectionTest {
    @Test
    void hostileArgumentsAndValuesArriveByteForByteAndRunNothing() throws Exception {
        TestCluster cluster = TestCluster.get();
        InjectionCorpus.runThrough(cluster, cluster.settings());
    }
}
