package dev.gantry.hosts.container;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.hosts.Host;
import dev.gantry.hosts.jobs.JobDirectory;
import dev.gantry.hosts.jobs.JobLaunch;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Runs a job's workload in a container on a host: writes the env file, gives the job wrapper the runtime command
 * line to run instead of the workload's argv, and removes the container and the env file when the job is stopped.
 * The wrapper removes the env file itself when the container exits; a stopped job's wrapper may not get that far.
 */
public final class ContainerLaunch {
    /** In the job directory; the job wrapper deletes it by this name. */
    public static final String ENV_FILE = "container.env";
    /** Marks a job that runs in a container; holds the container's name. */
    public static final String MARKER = "container";
    private static final Duration REMOVE_TIMEOUT = Duration.ofSeconds(30);

    private final Host host;
    private final ContainerSettings settings;
    private final String settingsPrefix;

    /**
     * @param settingsPrefix where the backend's container settings live, as users write them
     *     ({@code backends.manual}): problems name {@code PREFIX.containerRuntime}, never a backend of our choosing
     */
    public ContainerLaunch(Host host, ContainerSettings settings, String settingsPrefix) {
        this.host = host;
        this.settings = settings;
        this.settingsPrefix = java.util.Objects.requireNonNull(settingsPrefix, "settingsPrefix");
    }

    /** The command the wrapper runs and the variables the runtime process needs in its environment. */
    public record Launch(List<String> argv, Map<String, String> runtimeEnvironment, JobLaunch.PrivateFile envFile) {
    }

    /** Whether this workload runs in a container: it names an image and a runtime is configured. */
    public boolean runs(Workload workload) {
        return settings.enabled() && workload.container().isPresent();
    }

    /** What stops a plan's container from running here; the image itself with no runtime configured. */
    public List<Problem> problems(Plan plan) {
        List<Problem> problems = new ArrayList<>();
        Workload workload = plan.workload();
        workload.container().ifPresent(container -> {
            if (!settings.enabled()) {
                problems.add(Problem.of("container.image", "no container runtime is configured to run the image '"
                        + container.image() + "'; set " + settingsPrefix + "." + ContainerSettings.RUNTIME
                        + " to podman (or docker), or remove container to run the command directly"));
            }
        });
        if (runs(workload) && plan.nodes() > 1) {
            ContainerCommand.networkOption(settings.runOptions()).filter(network -> !network.equals("host"))
                    .ifPresent(network -> problems.add(Problem.of(settingsPrefix + "." + ContainerSettings.RUN_OPTIONS,
                            "chooses the container network '" + network + "', but the " + plan.nodes() + " ranks of "
                                    + "this job meet at MASTER_ADDR:MASTER_PORT, an address of rank 0's host, "
                                    + "which only the host's network reaches; remove the network option (Gantry "
                                    + "then runs multi-node containers with --network=host)")));
        }
        if (runs(workload)) {
            ContainerCommand.checkpointMount(workload).ifPresent(path -> {
                if (path.contains(":") || path.contains(",")) {
                    problems.add(Problem.of("checkpoint.path", "'" + path + "' cannot be mounted into the "
                            + "container: a volume path must not contain ':' or ','; choose a path without them"));
                }
            });
        }
        return problems;
    }

    /**
     * The container's env file, checked before anything of the job is written: a value the file cannot hold
     * travels in the runtime client's environment, which is refused for the variables the client itself reads.
     *
     * @param environment the container's environment: the workload's variables, resolved secrets and Gantry's own
     */
    public EnvFile envFile(Workload workload, Map<String, String> environment) {
        EnvFile envFile = EnvFile.of(environment);
        List<Problem> problems = new ArrayList<>();
        for (String name : envFile.namesOnly()) {
            if (EnvFile.readByRuntimeClient(name)) {
                problems.add(Problem.of((workload.secrets().containsKey(name) ? "secrets." : "env.") + name,
                        "has a line break (or is longer than " + EnvFile.MAX_LINE / 1024 + " KiB), which a line of "
                                + "the container's env file cannot hold, and " + name + " cannot travel in the "
                                + "container runtime's own environment instead because the runtime reads it; "
                                + "remove the line breaks or use another variable name"));
            }
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, problems);
        }
        return envFile;
    }

    /**
     * Records the container's name and returns the runtime command line for the job; the env file it reads is
     * {@link Launch#envFile()}, which the launch writes (0600) only once it knows the job is not started yet.
     *
     * @param gpus the host's GPUs the container gets
     */
    public Launch prepare(Plan plan, String jobId, int rank, JobDirectory job, EnvFile envFile, GpuSlice gpus) {
        ContainerCommand.checkpointMount(plan.workload()).ifPresent(host::createDirectory);
        host.writeAtomically(job.file(MARKER), ContainerCommand.containerName(jobId, rank, plan.nodes()) + "\n");
        return new Launch(ContainerCommand.run(settings, plan, jobId, rank, job.file(ENV_FILE), gpus),
                envFile.byName(), new JobLaunch.PrivateFile(ENV_FILE, envFile.text()));
    }

    /**
     * After the job's processes were signalled: removes its container (which a runtime may keep running when only
     * its client was killed) and the env file. Nothing to do for a job that ran without a container.
     */
    public void stopped(JobDirectory job) {
        Optional<String> container = host.readText(job.file(MARKER)).map(String::strip);
        if (container.isEmpty()) {
            return;
        }
        try {
            if (settings.enabled() && !container.get().isEmpty()) {
                host.run(ContainerCommand.remove(settings, container.get()), REMOVE_TIMEOUT);
            }
        } finally {
            host.delete(job.file(ENV_FILE));
        }
    }
}
