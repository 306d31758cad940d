package dev.gantry.backend.aks.testcluster;

import dev.gantry.testing.TestPodman;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Containers of the images the environment marks (the busybox test image of scripts/setup-podman.sh) under Podman,
 * so that a pod sees its image's file system: the container joins its node's network namespace, has the pod's
 * hostname, the node's hosts file as {@code /etc/hosts} (the pod DNS names, {@link PodDns}) and no DNS server (there is
 * none in the test cluster: without a resolv.conf the C library goes to the hosts file), the argv and environment
 * exactly as the kubelet expanded them (the image's entrypoint, if any, is not used: the test image has none),
 * {@code /dev/shm} of the pod's size and claims as host directories ({@link ContainerMounts}). Its stdout and stderr
 * go to the pod's log. A program runc cannot start is a {@code StartError} with containerd's wording, as
 * {@link HostProcessRuntime} gives it. As on a real node, the program is the container's PID 1: a SIGTERM it has no
 * handler for does nothing, and the kubelet's SIGKILL after the grace period stops it.
 *
 * <p>Podman is prepared on the first container of a marked image ({@link TestPodman#prepare}); when it is not
 * working, that container fails to start with a message saying so and how to fix it, never silently as a process of
 * this machine. Each container is removed once its exit code is read, and {@link #close} removes any left.
 */
final class PodmanRuntime implements ContainerRuntime {
    /** {@code Error: runc: runc create failed: unable to start container process: exec: "P": REASON: OCI ...}. */
    private static final Pattern EXEC_FAILED = Pattern.compile(
            "exec: \"(.*)\": (.*?): OCI (?:runtime attempted to invoke a command that was not found|permission denied)",
            Pattern.DOTALL);
    private static final String LABEL = "dev.gantry.test-cluster";

    private final Set<String> images;
    private final Path netnsConfig;
    private final Runnable prepare;
    private final String clusterId = HexFormat.of().formatHex(new SecureRandom().generateSeed(4));
    private final AtomicInteger sequence = new AtomicInteger();
    private final Set<String> containers = ConcurrentHashMap.newKeySet();

    /**
     * @param images the images it runs
     * @param netnsConfig where each node namespace's hosts file is ({@code NETNS_CONFIG/NS/hosts})
     * @param prepare makes Podman ready or throws {@link IllegalStateException} saying why it is not
     */
    PodmanRuntime(Set<String> images, Path netnsConfig, Runnable prepare) {
        this.images = Set.copyOf(images);
        this.netnsConfig = netnsConfig;
        this.prepare = prepare;
    }

    /** The test image of scripts/setup-podman.sh, under the shared test Podman. */
    static PodmanRuntime forTestImage(Path netnsConfig) {
        return new PodmanRuntime(Set.of(TestPodman.IMAGE), netnsConfig, TestPodman::prepare);
    }

    @Override
    public boolean runs(String image) {
        return images.contains(image);
    }

    @Override
    public Running start(Spec spec) throws StartError, IOException {
        try {
            prepare.run();
        } catch (IllegalStateException e) {
            throw new StartError("the test cluster runs image " + spec.image() + " under Podman, which is not"
                    + " working: " + e.getMessage());
        }
        String name = "gantry-kube-" + clusterId + "-" + sequence.incrementAndGet();
        TestPodman.Result created = TestPodman.podman(createArguments(name, spec));
        containers.add(name);
        if (created.code() != 0) {
            remove(name);
            throw new StartError(startErrorMessage(created.output()));
        }
        // runc creates the container and looks its program up here: a failure is the StartError, with nothing run.
        TestPodman.Result initialized = TestPodman.podman("init", name);
        if (initialized.code() != 0 && initialized.output().contains("workdir \"")
                && initialized.output().contains("\" does not exist on container")) {
            makeWorkingDirectory(name, spec.workingDirectory());
            initialized = TestPodman.podman("init", name);
        }
        if (initialized.code() != 0) {
            remove(name);
            throw new StartError(startErrorMessage(initialized.output()));
        }
        Process attached = new ProcessBuilder(TestPodman.command("start", "--attach", name)).redirectErrorStream(true)
                .redirectOutput(ProcessBuilder.Redirect.appendTo(spec.logFile().toFile()))
                .redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null"))).start();
        return new Container(name, attached);
    }

    private String[] createArguments(String name, Spec spec) throws IOException {
        List<String> args = new ArrayList<>(List.of("create", "--name", name, "--label", LABEL + "=" + clusterId,
                "--pull", "never", "--hostname", spec.hostname(), "--dns", "none"));
        TestPodman.ulimits().forEach(limit -> args.addAll(List.of("--ulimit", limit)));
        if (spec.slot().isolated()) {
            String hosts = netnsConfig.resolve(spec.slot().namespace()).resolve("hosts").toString();
            args.addAll(List.of("--network", "ns:/run/netns/" + spec.slot().namespace(), "--no-hosts",
                    "--volume", hosts + ":/etc/hosts:ro"));
        } else {
            args.addAll(List.of("--network", "host"));
        }
        spec.mounts().shmBytes().ifPresent(bytes -> args.addAll(List.of("--shm-size", Long.toString(bytes))));
        for (String path : spec.mounts().claimPaths()) {
            Files.createDirectories(Path.of(path));
            args.addAll(List.of("--volume", path + ":" + path));
        }
        if (spec.workingDirectory() != null && !spec.workingDirectory().isEmpty()) {
            args.addAll(List.of("--workdir", spec.workingDirectory()));
        }
        // Podman's own additions a kubelet does not make (TERM, container=podman), unless the pod sets them.
        for (String added : List.of("TERM", "container")) {
            if (!spec.environment().containsKey(added)) {
                args.addAll(List.of("--unsetenv", added));
            }
        }
        for (Map.Entry<String, String> variable : spec.environment().entrySet()) {
            args.addAll(List.of("--env", variable.getKey() + "=" + variable.getValue()));
        }
        args.add(spec.image());
        args.addAll(spec.argv());
        return args.toArray(String[]::new);
    }

    /**
     * Makes the working directory in the container's file system, as runc does on a node (Podman refuses a missing
     * one): through {@code podman mount}, which the test Podman (root, vfs storage) allows.
     */
    private static void makeWorkingDirectory(String name, String directory) throws IOException {
        TestPodman.Result mounted = TestPodman.podman("mount", name);
        if (mounted.code() != 0) {
            throw new IOException("podman mount " + name + " failed: " + mounted.output());
        }
        try {
            Files.createDirectories(Path.of(mounted.output()).resolve(directory.replaceFirst("^/+", "")));
        } finally {
            TestPodman.podman("unmount", name);
        }
    }

    /** Podman's words for a container runc could not start, as containerd words them on a node. */
    static String startErrorMessage(String podmanOutput) {
        String message = podmanOutput.strip().replaceFirst("^Error: ", "");
        Matcher exec = EXEC_FAILED.matcher(message);
        if (exec.find()) {
            return RuncMessages.execFailed(exec.group(1), exec.group(2));
        }
        return RuncMessages.createFailed(message.replaceFirst("^runc: ", ""));
    }

    private void remove(String name) {
        TestPodman.podman("rm", "--force", "--time", "0", name);
        containers.remove(name);
    }

    /** Removes every container this runtime made that is still there (the cluster closes). */
    @Override
    public void close() {
        List<String> left = List.copyOf(containers);
        if (!left.isEmpty()) {
            List<String> args = new ArrayList<>(List.of("rm", "--force", "--ignore", "--time", "0"));
            args.addAll(left);
            TestPodman.podman(args.toArray(String[]::new));
            containers.removeAll(left);
        }
    }

    /** One container: {@code podman start --attach} runs while it does. */
    private final class Container implements Running {
        private final String name;
        private final Process attached;

        Container(String name, Process attached) {
            this.name = name;
            this.attached = attached;
        }

        /** The container's exit code as Podman recorded it; the container is removed once it is read. */
        @Override
        public int waitFor() throws InterruptedException {
            int attachExit = attached.waitFor();
            TestPodman.Result inspected = TestPodman.podman("inspect", "--format", "{{.State.ExitCode}}", name);
            remove(name);
            return inspected.code() == 0 && inspected.output().matches("\\d+") ? Integer.parseInt(inspected.output())
                    : attachExit;
        }

        @Override
        public void terminate() {
            TestPodman.podman("kill", "--signal", "TERM", name);
        }

        @Override
        public void kill() {
            TestPodman.podman("kill", "--signal", "KILL", name);
        }

        @Override
        public boolean isAlive() {
            return attached.isAlive();
        }
    }
}
