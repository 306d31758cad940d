package dev.gantry.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;

/**
 * A process of this machine run as a test node runs it (the Kubernetes test cluster's kubelet, the Batch fake's
 * nodes): in the node's network namespace ({@code ip netns exec NS}, which also bind-mounts {@code /etc/netns/NS/*}
 * over {@code /etc}), with a hostname of its own where one is given (a UTS namespace), with exactly the environment
 * given and nothing inherited, stdin from {@code /dev/null}, and as the leader of a new session, so of a new process
 * group: {@link #killGroup()} reaches everything it started, grandchildren whose parent has already ended included.
 *
 * <p>The wrappers ({@code setsid}, {@code ip netns exec}, {@code unshare}) each exec the next program, so
 * {@link #pid()} is the workload's own first process and the group's id. Namespaces are made as root by the repository's scripts
 * ({@code scripts/test-kube.sh up} and the like); {@link #requireNamespace} says which one to run when one is missing.
 */
public final class NamespaceProcess {
    /** Where network namespaces made by {@code ip netns add} appear. */
    private static final Path NAMED_NAMESPACES = Path.of("/run/netns");
    /**
     * Sets the hostname inside the new UTS namespace, then execs the workload. dash exports a PWD of its own (the
     * real directory, even over one given), so the caller's is put back, or none when the caller gave none
     * ({@code $1} is {@code =VALUE} or {@code -}): the environment stays exactly the caller's.
     */
    private static final String SET_HOSTNAME_THEN_EXEC = "hostname \"$0\" || exit 125; case $1 in =*)"
            + " PWD=${1#=}; export PWD;; *) unset PWD;; esac; shift; exec \"$@\"";

    private final Process process;

    private NamespaceProcess(Process process) {
        this.process = process;
    }

    /**
     * What to run.
     *
     * @param namespace the network namespace, or "" for this machine's own network (tests of logic alone)
     * @param hostname the hostname the process sees, or "" to keep this machine's
     * @param argv the program and its arguments, exactly (no shell in between)
     * @param environment the whole environment of the process (PATH included: nothing is added)
     * @param workingDirectory made when missing
     * @param stdout where standard output goes
     * @param stderr where standard error goes; equal to {@code stdout}, both go into one stream in the order written
     */
    public record Spec(String namespace, String hostname, List<String> argv, Map<String, String> environment,
            Path workingDirectory, ProcessBuilder.Redirect stdout, ProcessBuilder.Redirect stderr) {
        public Spec {
            if (argv.isEmpty()) {
                throw new IllegalArgumentException("argv is empty: a process needs at least its program");
            }
            argv = List.copyOf(argv);
            environment = Map.copyOf(environment);
        }

        /** The command line that runs {@link #argv} in the namespace, under a new session. */
        List<String> command() {
            List<String> command = new ArrayList<>(List.of("setsid"));
            if (!namespace.isEmpty()) {
                command.addAll(List.of("ip", "netns", "exec", namespace));
            }
            if (!hostname.isEmpty()) {
                command.addAll(List.of("unshare", "--uts", "--", "/bin/sh", "-c", SET_HOSTNAME_THEN_EXEC, hostname,
                        environment.containsKey("PWD") ? "=" + environment.get("PWD") : "-"));
            }
            command.addAll(argv);
            return command;
        }
    }

    /**
     * Starts {@code spec}; the working directory is made when missing. Callers check the namespace first with
     * {@link #requireNamespace}, naming their script; here a missing one fails in {@code ip netns exec}.
     */
    public static NamespaceProcess start(Spec spec) throws IOException {
        Files.createDirectories(spec.workingDirectory());
        ProcessBuilder builder = new ProcessBuilder(spec.command()).directory(spec.workingDirectory().toFile())
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).redirectOutput(spec.stdout());
        if (spec.stderr().equals(spec.stdout())) {
            builder.redirectErrorStream(true);
        } else {
            builder.redirectError(spec.stderr());
        }
        builder.environment().clear();
        builder.environment().putAll(spec.environment());
        return new NamespaceProcess(builder.start());
    }

    /**
     * Fails unless the network namespace exists.
     *
     * @param howToMake the command that makes it, named in the message
     * @throws IllegalStateException naming the namespace and {@code howToMake}
     */
    public static void requireNamespace(String namespace, String howToMake) {
        if (!Files.exists(NAMED_NAMESPACES.resolve(namespace))) {
            throw new IllegalStateException("the network namespace " + namespace + " does not exist; make it with "
                    + howToMake + " (as root)");
        }
    }

    /** The first process's id, which is also its process group's and session's. */
    public long pid() {
        return process.pid();
    }

    public Process process() {
        return process;
    }

    /** Completes with the first process's exit code when it ends. */
    public CompletableFuture<Integer> exit() {
        return process.onExit().thenApply(Process::exitValue);
    }

    public boolean isAlive() {
        return process.isAlive();
    }

    /** SIGTERM to the first process only, as a graceful stop sends it to a container's PID 1. */
    public void terminate() {
        process.destroy();
    }

    /** SIGTERM to every process of the group. */
    public void terminateGroup() {
        signalGroup("TERM");
    }

    /** SIGKILL to every process of the group: nothing it started survives, whatever its parent did. */
    public void killGroup() {
        signalGroup("KILL");
        process.destroyForcibly();
    }

    /**
     * The group outlives its first process while any member lives, and its id is not reused while it does, so a
     * signal to it after the first process ended still reaches exactly the workload's processes.
     */
    private void signalGroup(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-s", signal, "--", "-" + pid())
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            kill.waitFor();
        } catch (IOException e) {
            throw new IllegalStateException("cannot run kill to signal process group " + pid() + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted signalling process group " + pid(), e);
        }
    }
}
