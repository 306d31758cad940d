package dev.gantry.backend.batch.fake.nodes;

import dev.gantry.testing.NamespaceProcess;
import java.util.concurrent.CompletableFuture;

/** A task's process on a fake node: the leader of its own process group, which is signalled whole. */
public final class NodeProcess {
    private final NamespaceProcess process;

    NodeProcess(NamespaceProcess process) {
        this.process = process;
    }

    /** The task's first process, which is also its process group's id. */
    public long pid() {
        return process.pid();
    }

    /** Completes with the first process's exit code (128 + the signal's number when a signal ended it). */
    public CompletableFuture<Integer> exit() {
        return process.exit();
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM to every process of the task. */
    public void terminateGroup() {
        process.terminateGroup();
    }

    /** SIGKILL to every process of the task (terminate, preemption, shutdown): nothing it started survives. */
    public void killGroup() {
        process.killGroup();
    }
}
