package dev.gantry.backend.aks.testcluster;

import dev.gantry.testing.NamespaceProcess;

/**
 * A container that is one process of this machine (and whatever it starts).
 *
 * @param killAll SIGKILL to every process of the container
 */
record ProcessRunning(Process process, Runnable killAll) implements ContainerRuntime.Running {
    /** A container started as its own process group: killed as a group, grandchildren that were re-parented too. */
    ProcessRunning(NamespaceProcess started) {
        this(started.process(), started::killGroup);
    }

    /** A plain process (a runtime's stand-in in tests): killed with the descendants it still has, then itself. */
    ProcessRunning(Process process) {
        this(process, () -> {
            process.descendants().forEach(ProcessHandle::destroyForcibly);
            process.destroyForcibly();
        });
    }

    @Override
    public int waitFor() throws InterruptedException {
        return process.waitFor();
    }

    @Override
    public void terminate() {
        process.destroy();
    }

    /** The whole container goes: every process the workload started, then its first one. */
    @Override
    public void kill() {
        killAll.run();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }
}
