package dev.gantry.backend.aks.testcluster;

/** A container that is one process of this machine (and whatever it starts). */
record ProcessRunning(Process process) implements ContainerRuntime.Running {
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
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
    }

    @Override
    public boolean isAlive() {
        return process.isAlive();
    }
}
