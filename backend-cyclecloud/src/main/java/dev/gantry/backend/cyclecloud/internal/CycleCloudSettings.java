package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.backend.cyclecloud.internal.cyclecloud.CycleCloudEndpoint;
import dev.gantry.backend.cyclecloud.internal.slurm.SbatchDirectives;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshLoginSettings;
import dev.gantry.ssh.SshTarget;
import java.net.URI;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The CycleCloud backend's settings, bound once from {@code backends.cyclecloud.*}; every problem is reported at once,
 * each naming its key, the value given and the fix.
 *
 * @param scheduler the cluster's scheduler
 * @param login the scheduler (login) node, reached and trusted like every SSH host Gantry uses
 * @param workDir the directory holding one directory per job, on the file system the login node and every compute
 *     node share
 * @param partitions which partition (queue) each VM size runs in
 * @param account the account jobs are charged to, if any
 * @param qos the quality of service jobs ask for, if any
 * @param gpuRequest how GPUs are asked for
 * @param binDir where the scheduler's commands are on the login node; empty: its PATH
 * @param jobCompLog the scheduler's job completion log (Slurm {@code jobcomp/filetxt}), read for jobs it forgot
 * @param masterPort the port rank 0 listens on for multi-node jobs ({@code MASTER_PORT})
 * @param parallelEnvironment Grid Engine: the parallel environment of jobs of more than one slot on one host
 * @param multiNodeParallelEnvironment Grid Engine: the parallel environment of jobs of more than one host, if any: its
 *     allocation rule is a number of slots per host, and it controls the slave tasks
 * @param gpuComplex Grid Engine: the complex that counts GPUs
 * @param memoryComplex Grid Engine: the complex that carries a job's memory request, per slot
 * @param cycleCloud the CycleCloud server that manages the cluster, when given: its node arrays map VM sizes to
 *     partitions and say when a plan's size has none
 */
public record CycleCloudSettings(Scheduler scheduler, SshTarget login, String workDir, PartitionMap partitions,
                                 Optional<String> account, Optional<String> qos,
                                 SbatchDirectives.GpuRequest gpuRequest, Optional<String> binDir,
                                 Optional<String> jobCompLog, int masterPort, String parallelEnvironment,
                                 Optional<String> multiNodeParallelEnvironment, String gpuComplex, String memoryComplex,
                                 Optional<CycleCloudEndpoint> cycleCloud) {
    public static final String SCHEDULER = "scheduler";
    public static final String WORK_DIR = "workDir";
    public static final String PARTITIONS = "partitions";
    public static final String DEFAULT_PARTITION = "defaultPartition";
    public static final String ACCOUNT = "account";
    public static final String QOS = "qos";
    public static final String GPU_REQUEST = "gpuRequest";
    public static final String BIN_DIR = "binDir";
    public static final String JOB_COMP_LOG = "jobCompLog";
    public static final String MASTER_PORT = "masterPort";
    public static final String PARALLEL_ENVIRONMENT = "parallelEnvironment";
    public static final String MULTI_NODE_PARALLEL_ENVIRONMENT = "multiNodeParallelEnvironment";
    public static final String GPU_COMPLEX = "gpuComplex";
    public static final String MEMORY_COMPLEX = "memoryComplex";
    /** The CycleCloud server's keys: {@code cycleCloud.url}, {@code cycleCloud.cluster}, ... */
    public static final String CYCLECLOUD = "cycleCloud";

    /** A path on the cluster as the fixed scripts take it: absolute, no control characters. */
    private static final Pattern REMOTE_PATH = Pattern.compile("/[^\\x00-\\x1f\\x7f]*");
    /** Account and QoS names: one word, as sbatch's directives carry them. */
    private static final Pattern NAME = Pattern.compile("[A-Za-z0-9._@+-]{1,64}");
    /** Grid Engine's names of parallel environments (sge_types(5), one word) and complexes (complex(5)). */
    private static final Pattern PE_NAME = Pattern.compile("[A-Za-z0-9._%+=,-]{1,64}");
    private static final Pattern COMPLEX_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]{0,63}");
    /** A Grid Engine project, as qsub's -P takes it (sge_types(5)). */
    private static final Pattern GE_PROJECT = Pattern.compile("[A-Za-z0-9._%+=,-]{1,64}");

    public static final List<ConfigKey> KEYS = keys();

    public CycleCloudSettings {
        Objects.requireNonNull(scheduler, "scheduler");
        Objects.requireNonNull(login, "login");
        Objects.requireNonNull(workDir, "workDir");
        Objects.requireNonNull(partitions, "partitions");
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(qos, "qos");
        Objects.requireNonNull(gpuRequest, "gpuRequest");
        Objects.requireNonNull(binDir, "binDir");
        Objects.requireNonNull(jobCompLog, "jobCompLog");
        Objects.requireNonNull(parallelEnvironment, "parallelEnvironment");
        Objects.requireNonNull(multiNodeParallelEnvironment, "multiNodeParallelEnvironment");
        Objects.requireNonNull(gpuComplex, "gpuComplex");
        Objects.requireNonNull(memoryComplex, "memoryComplex");
        Objects.requireNonNull(cycleCloud, "cycleCloud");
    }

    /** Whether the login node's host key is not verified (the backend warns loudly). */
    public boolean insecureLogin() {
        return login.hostKeyPolicy() instanceof HostKeyPolicy.InsecureAcceptAnyHostKey;
    }

    public static CycleCloudSettings bind(BackendConfig config) {
        ConfigProblems problems = new ConfigProblems(config);
        problems.unknownKeys(KEYS);
        Scheduler scheduler = problems.read(() -> Scheduler.ofConfigName(config.getChoice(SCHEDULER, "slurm",
                Scheduler.configNames())).orElseThrow(), Scheduler.SLURM);
        SshLoginSettings.Source at = SshLoginSettings.Source.of(config);
        List<Problem> login = new ArrayList<>();
        Optional<String> address = SshLoginSettings.address(at, login);
        // Bound without an address too, so that the login's other problems come in the same round.
        Optional<SshTarget> target = SshLoginSettings.bind(address.orElse("unset"), at, login);
        login.forEach(problems::add);
        String workDir = remotePath(config, WORK_DIR, problems).orElse("/");
        if (config.get(WORK_DIR).filter(s -> !s.isBlank()).isEmpty()) {
            problems.add(WORK_DIR, "is required: the directory holding Gantry's job directories, on the file system "
                    + "the login node and every compute node share (on CycleCloud e.g. /shared/home/USER/gantry)");
        }
        PartitionMap partitions = PartitionMap.bind(config, PARTITIONS, DEFAULT_PARTITION, problems);
        Optional<String> account = name(config, ACCOUNT, problems);
        Optional<String> qos = name(config, QOS, problems);
        SbatchDirectives.GpuRequest gpuRequest = problems.read(() -> SbatchDirectives.GpuRequest.valueOf(
                config.getChoice(GPU_REQUEST, "gpus-per-node", List.of("gpus-per-node", "gres"))
                        .toUpperCase(Locale.ROOT).replace('-', '_')), SbatchDirectives.GpuRequest.GPUS_PER_NODE);
        Optional<String> binDir = remotePath(config, BIN_DIR, problems);
        Optional<String> jobCompLog = remotePath(config, JOB_COMP_LOG, problems);
        List<Problem> portProblems = new ArrayList<>();
        int masterPort = SshLoginSettings.port(at, MASTER_PORT, JobEnvironment.DEFAULT_MASTER_PORT, portProblems);
        portProblems.forEach(problems::add);
        String parallelEnvironment = word(config, PARALLEL_ENVIRONMENT, "smpslots", PE_NAME, "a Grid Engine "
                + "parallel environment name (qconf -spl lists them)", problems);
        Optional<String> multiNodeParallelEnvironment = config.get(MULTI_NODE_PARALLEL_ENVIRONMENT).map(String::strip)
                .filter(v -> !v.isEmpty());
        if (multiNodeParallelEnvironment.isPresent() && !PE_NAME.matcher(multiNodeParallelEnvironment.get())
                .matches()) {
            problems.add(MULTI_NODE_PARALLEL_ENVIRONMENT, "'" + multiNodeParallelEnvironment.get() + "' is not a "
                    + "Grid Engine parallel environment name (qconf -spl lists them); use letters, digits and ._%+=,-");
            multiNodeParallelEnvironment = Optional.empty();
        }
        String gpuComplex = word(config, GPU_COMPLEX, "gpu", COMPLEX_NAME, "a Grid Engine complex name (qconf -sc "
                + "lists them)", problems);
        String memoryComplex = word(config, MEMORY_COMPLEX, "h_vmem", COMPLEX_NAME, "a Grid Engine complex name "
                + "(qconf -sc lists them)", problems);
        Optional<CycleCloudEndpoint> cycleCloud = cycleCloud(config, problems);
        schedulerKeys(config, scheduler, problems);
        if (scheduler == Scheduler.PBS) {
            problems.add(SCHEDULER, "'pbs' is not runnable in this version of Gantry: its scripts and parsers are "
                    + "rendered and tested, but never against a live PBS; use slurm or gridengine "
                    + "(docs/backends/cyclecloud.md)");
        }
        problems.throwIfAny();
        return new CycleCloudSettings(scheduler, target.orElseThrow(), workDir, partitions, account, qos,
                gpuRequest, binDir, jobCompLog, masterPort, parallelEnvironment, multiNodeParallelEnvironment,
                gpuComplex, memoryComplex, cycleCloud);
    }

    /** {@code cycleCloud.*}, when {@code cycleCloud.url} is given; every wrong field named under its key. */
    private static Optional<CycleCloudEndpoint> cycleCloud(BackendConfig config, ConfigProblems problems) {
        BackendConfig cc = config.subset(CYCLECLOUD);
        if (cc.get("url").isEmpty()) {
            for (String key : List.of("cluster", "user", "password", "caFile", "insecureSkipTlsVerify", "timeout")) {
                if (cc.get(key).isPresent()) {
                    problems.add(CYCLECLOUD + "." + key, "is set but cycleCloud.url is not; give the CycleCloud "
                            + "server's https:// address, or remove the cycleCloud settings");
                }
            }
            return Optional.empty();
        }
        try {
            URI url = URI.create(cc.get("url").get().strip());
            Optional<SecretRef> password = cc.get("password").map(String::strip).map(SecretRef::parse);
            Duration timeout = cc.getDuration("timeout", CycleCloudEndpoint.DEFAULT_TIMEOUT);
            return Optional.of(new CycleCloudEndpoint(url, cc.get("cluster").map(String::strip).orElse(null),
                    cc.get("user").map(String::strip).orElse(null), password.orElse(null),
                    cc.get("caFile").map(String::strip).map(SshLoginSettings::userPath),
                    cc.getBoolean("insecureSkipTlsVerify", false), timeout));
        } catch (IllegalArgumentException e) {
            problems.add(CYCLECLOUD + ".url", "'" + cc.get("url").get() + "' is not a URL (" + e.getMessage()
                    + "); give e.g. https://cyclecloud.example.com");
        } catch (GantryException e) {
            if (e.problems().isEmpty()) {
                problems.add(CYCLECLOUD, e.getMessage());
            }
            for (Problem p : e.problems()) {
                problems.add(CYCLECLOUD + "." + p.path(), p.message());
            }
        }
        return Optional.empty();
    }

    private static Optional<String> remotePath(BackendConfig config, String key, ConfigProblems problems) {
        Optional<String> value = config.get(key).map(String::strip).filter(s -> !s.isEmpty());
        if (value.isEmpty()) {
            return Optional.empty();
        }
        String path = value.get();
        while (path.length() > 1 && path.endsWith("/")) {
            path = path.substring(0, path.length() - 1);
        }
        if (!REMOTE_PATH.matcher(path).matches()) {
            problems.add(key, "must be an absolute path on the cluster without control characters (tabs, line "
                    + "breaks), got '" + value.get() + "'");
            return Optional.empty();
        }
        return Optional.of(path);
    }

    private static Optional<String> name(BackendConfig config, String key, ConfigProblems problems) {
        Optional<String> value = config.get(key).map(String::strip).filter(s -> !s.isEmpty());
        if (value.isPresent() && !NAME.matcher(value.get()).matches()) {
            problems.add(key, "'" + value.get() + "' is not a scheduler " + key + " name; use up to 64 letters, "
                    + "digits and ._@+- (as sacctmgr shows it)");
            return Optional.empty();
        }
        return value;
    }

    /** Keys only one scheduler reads: set for the other, they would be ignored without a word, so they are refused. */
    private static void schedulerKeys(BackendConfig config, Scheduler scheduler, ConfigProblems problems) {
        List<String> slurmOnly = List.of(QOS, GPU_REQUEST, JOB_COMP_LOG);
        List<String> gridEngineOnly = List.of(PARALLEL_ENVIRONMENT, MULTI_NODE_PARALLEL_ENVIRONMENT, GPU_COMPLEX,
                MEMORY_COMPLEX);
        List<String> foreign = scheduler == Scheduler.SLURM ? gridEngineOnly
                : scheduler == Scheduler.GRIDENGINE ? slurmOnly : List.of();
        String owner = scheduler == Scheduler.SLURM ? "Grid Engine" : "Slurm";
        for (String key : foreign) {
            if (config.get(key).filter(v -> !v.isBlank()).isPresent()) {
                problems.add(key, "is a " + owner + " setting, and this cluster's scheduler is "
                        + scheduler.configName() + "; remove it (or set scheduler to the cluster's)");
            }
        }
        if (scheduler == Scheduler.GRIDENGINE) {
            config.get(ACCOUNT).map(String::strip).filter(a -> !a.isEmpty() && !GE_PROJECT.matcher(a).matches())
                    .ifPresent(a -> problems.add(ACCOUNT, "'" + a + "' is not a Grid Engine project name (-P): use "
                            + "letters, digits and ._%+=,- (qconf -sprjl lists the projects)"));
        }
    }

    private static String word(BackendConfig config, String key, String fallback, Pattern allowed, String what,
                               ConfigProblems problems) {
        String value = config.get(key).map(String::strip).filter(v -> !v.isEmpty()).orElse(fallback);
        if (!allowed.matcher(value).matches()) {
            problems.add(key, "'" + value + "' is not " + what + "; the default is " + fallback);
            return fallback;
        }
        return value;
    }

    private static List<ConfigKey> keys() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.optional(SCHEDULER, "the cluster's scheduler: slurm, gridengine or pbs", "slurm"));
        keys.add(ConfigKey.required(SshLoginSettings.ADDRESS, "the scheduler (login) node's DNS name or IP address"));
        SshLoginSettings.LOGIN_KEYS.forEach((key, text) -> keys.add(ConfigKey.optional(key, "login node: " + text,
                null)));
        keys.add(ConfigKey.required(WORK_DIR, "directory holding one directory per job, on the file system the "
                + "login node and the compute nodes share"));
        keys.add(ConfigKey.optional(PARTITIONS, "which partition each VM size runs in, as VMSIZE=PARTITION items "
                + "(CycleCloud's node arrays: hpc, htc, gpu, dynamic)", null));
        keys.add(ConfigKey.optional(PARTITIONS + "[*]", "one VMSIZE=PARTITION item", null));
        keys.add(ConfigKey.optional(DEFAULT_PARTITION, "the partition of sizes not listed under partitions",
                "the cluster's default partition"));
        keys.add(ConfigKey.optional(ACCOUNT, "the account jobs are charged to", null));
        keys.add(ConfigKey.optional(QOS, "the quality of service jobs ask for", null));
        keys.add(ConfigKey.optional(GPU_REQUEST, "how GPUs are asked for: gpus-per-node or gres (gres=gpu:N, for "
                + "clusters configured before Slurm 19.05)", "gpus-per-node"));
        keys.add(ConfigKey.optional(BIN_DIR, "directory of the scheduler's commands on the login node", "its PATH"));
        keys.add(ConfigKey.optional(JOB_COMP_LOG, "Slurm's job completion log (JobCompType=jobcomp/filetxt, "
                + "JobCompLoc), read for jobs Slurm no longer lists", null));
        keys.add(ConfigKey.optional(MASTER_PORT, "MASTER_PORT of multi-node jobs",
                String.valueOf(JobEnvironment.DEFAULT_MASTER_PORT)));
        keys.add(ConfigKey.optional(PARALLEL_ENVIRONMENT, "Grid Engine: the parallel environment (allocation rule "
                + "$pe_slots) of jobs of more than one slot on one host", "smpslots"));
        keys.add(ConfigKey.optional(MULTI_NODE_PARALLEL_ENVIRONMENT, "Grid Engine: the parallel environment of jobs "
                + "of more than one host; its allocation rule is a number of slots per host (1 for one rank per "
                + "host) and control_slaves is TRUE", "none: multi-node jobs are refused"));
        keys.add(ConfigKey.optional(GPU_COMPLEX, "Grid Engine: the consumable complex that counts GPUs", "gpu"));
        keys.add(ConfigKey.optional(MEMORY_COMPLEX, "Grid Engine: the complex that carries a job's memory, per slot "
                + "(h_vmem, or a consumable such as m_mem_free)", "h_vmem"));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".url", "the CycleCloud server's https:// address: its node "
                + "arrays map VM sizes to partitions", null));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".cluster", "the cluster's name in CycleCloud", null));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".user", "the CycleCloud user to sign in as", null));
        keys.add(ConfigKey.secret(CYCLECLOUD + ".password", "a secret reference (env:NAME, file:PATH, a Key Vault "
                + "secret) to the user's password"));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".caFile", "PEM certificate(s) to trust for the server (its "
                + "self-signed certificate)", "the JDK's trust store"));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".insecureSkipTlsVerify", "INSECURE: trust any certificate "
                + "(throw-away test servers only)", "false"));
        keys.add(ConfigKey.optional(CYCLECLOUD + ".timeout", "bound on each request to the server", "30s"));
        return List.copyOf(keys);
    }
}
