package dev.gantry.api.backend;

import dev.gantry.api.FabricCheck;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * What every node of a multi-node job checks before the job's command starts, the same on every backend: each
 * backend launches {@link #command(Plan)} where it launched the workload's command, so the checks are part of what the
 * job runs, built here once. The argv is {@code /bin/sh -c SCRIPT gantry-start-checks SETTINGS... -- COMMAND...}: the
 * workload's argv follows as positional parameters and is run with {@code exec "$@"}, so each element arrives
 * verbatim and none is ever shell text; the settings are numbers, a VM size name and a fixed source text.
 *
 * <ol>
 *   <li>The node health check, for every job of two nodes or more that has GPUs or an RDMA size: the host checks of
 *       {@code gantry doctor} that matter at start, on the node itself: the GPUs' driver answers and shows the
 *       plan's GPUs per node ({@code gpu.driver}, {@code gpu.count}), no GPU reports uncorrectable memory errors or a
 *       pending or failed row remapping where the driver reports them ({@code gpu.memory}), and on an RDMA size at
 *       least one InfiniBand port is ACTIVE ({@code infiniband}). A failing node names itself (host and rank).</li>
 *   <li>The fabric check, where {@link #fabricFloor(Plan)} gives a floor: one all-reduce between the nodes, with
 *       nccl-tests' {@code all_reduce_perf} when it is installed and the job runs under an MPI launcher, else with a
 *       few lines of {@code torch.distributed} (NCCL on GPU 0, gloo on CPUs); its bus bandwidth must reach the
 *       floor.</li>
 * </ol>
 * A node that fails a check prints what was found, what was expected and the likely causes, and exits
 * {@link #FAILED_EXIT} without starting the command, so the attempt fails before training.
 */
public final class StartChecks {
    /** The exit status of a node whose check failed; the command did not start. */
    public static final int FAILED_EXIT = 86;
    /** {@code $0} of the checking shell. */
    public static final String SHELL_NAME = "gantry-start-checks";
    /** How many timed all-reduces the check averages, after one warm-up. */
    public static final int ITERATIONS = 5;
    /** How long a rank waits for the others to meet (a node that failed its health check never comes). */
    public static final int RENDEZVOUS_TIMEOUT_SECONDS = 180;
    /** The message of a workload's own floor on a size without a published one: 1 GiB. */
    private static final long DEFAULT_MESSAGE_BYTES = 1L << 30;

    private static final String AWK = load("all-reduce-perf.awk");
    private static final String SCRIPT = load("start-checks.sh")
            .replace("@FABRIC_PY@", load("fabric-check.py"))
            .replace("@ALL_REDUCE_PERF_AWK@", AWK);

    private StartChecks() {
    }

    /**
     * The floor a plan's fabric check must reach, when the check runs: as the workload sets it, else on for
     * training on two nodes or more of an RDMA size whose floor is published ({@link FabricFloor#PUBLISHED}). A
     * workload's own floor or message replaces the published one.
     *
     * @param plan the plan
     * @return the floor to reach, or empty when the check does not run
     * @throws dev.gantry.api.GantryException PLAN_REJECTED when the workload asks for the check on a size without a
     *     published floor and gives none of its own
     */
    public static Optional<FabricFloor> fabricFloor(Plan plan) {
        Workload workload = plan.workload();
        Optional<FabricCheck> setting = workload.fabricCheck();
        if (plan.nodes() < 2 || setting.map(check -> !check.enabled()).orElse(false)) {
            return Optional.empty();
        }
        String size = plan.vmSize().name();
        Optional<FabricFloor> published = FabricFloor.published(size);
        if (setting.isEmpty()) {
            boolean byDefault = workload.phase() == Phase.TRAINING && plan.vmSize().rdma();
            return byDefault ? published : Optional.empty();
        }
        FabricCheck check = setting.get();
        if (check.minBusBandwidthGBps().isEmpty()) {
            FabricFloor floor = FabricFloor.require(size);
            return Optional.of(check.messageMiB().map(mib -> new FabricFloor(size, floor.busBandwidthGBps(),
                    mib * (1L << 20), floor.source())).orElse(floor));
        }
        long bytes = check.messageMiB().map(mib -> mib * (1L << 20))
                .orElse(published.map(FabricFloor::messageBytes).orElse(DEFAULT_MESSAGE_BYTES));
        return Optional.of(new FabricFloor(size, check.minBusBandwidthGBps().get(), bytes,
                "the workload's fabricCheck.minBusBandwidthGBps"));
    }

    /**
     * What keeps a plan's start checks from running, found before anything is submitted: callers that validate a
     * plan for a backend (the facade's submit, the run engine's) add these to the backend's own problems.
     *
     * @param plan the plan
     * @return the fabric check's problem when it must run and has no floor, under the field {@code fabricCheck};
     *     empty otherwise
     */
    public static List<Problem> problems(Plan plan) {
        try {
            fabricFloor(plan);
            return List.of();
        } catch (GantryException e) {
            return List.of(Problem.of("fabricCheck", e.getMessage().substring("fabricCheck: ".length())));
        }
    }

    /**
     * Whether the nodes check their health before the command: for two nodes or more with GPUs or on an RDMA size.
     *
     * @param plan the plan
     * @return whether the node health check runs
     */
    public static boolean healthCheck(Plan plan) {
        return plan.nodes() >= 2 && (gpus(plan) > 0 || plan.vmSize().rdma());
    }

    /**
     * The argv a backend launches on each node in place of the workload's command: the workload's argv itself when
     * no check runs, else the checks with it as their last arguments.
     *
     * @param plan the plan
     * @return the argv to launch
     * @throws dev.gantry.api.GantryException PLAN_REJECTED as {@link #fabricFloor(Plan)} says
     */
    public static List<String> command(Plan plan) {
        Optional<FabricFloor> floor = fabricFloor(plan);
        boolean health = healthCheck(plan);
        if (floor.isEmpty() && !health) {
            return plan.workload().command();
        }
        int gpus = health ? gpus(plan) : 0;
        String vendor = gpus == 0 ? "none" : plan.vmSize().gpu().map(g -> g.vendor())
                .orElse(GpuVendor.NVIDIA).name().toLowerCase(Locale.ROOT);
        List<String> argv = new ArrayList<>(List.of("/bin/sh", "-c", SCRIPT, SHELL_NAME,
                Integer.toString(gpus), vendor, health && plan.vmSize().rdma() ? "1" : "0",
                floor.isPresent() ? "1" : "0",
                floor.map(f -> plainNumber(f.busBandwidthGBps())).orElse("0"),
                Long.toString(floor.map(FabricFloor::messageBytes).orElse(0L)),
                Integer.toString(ITERATIONS), Integer.toString(RENDEZVOUS_TIMEOUT_SECONDS),
                plan.vmSize().name(), floor.map(FabricFloor::source).orElse(""), "--"));
        argv.addAll(plan.workload().command());
        return argv;
    }

    /**
     * The checking shell's text, which {@link #command(Plan)} runs.
     *
     * @return the script
     */
    public static String script() {
        return SCRIPT;
    }

    /**
     * The awk program that reads {@code all_reduce_perf}'s output: it prints {@code busbw GBPS bytes SIZE} for the
     * largest message's out-of-place bus bandwidth and exits 1 when the output has no result row.
     *
     * @return the program
     */
    public static String allReducePerfParser() {
        return AWK;
    }

    private static int gpus(Plan plan) {
        return plan.workload().resources().gpus().orElse(plan.gpusPerNode());
    }

    private static String plainNumber(double value) {
        return java.math.BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }

    private static String load(String name) {
        try (InputStream in = StartChecks.class.getResourceAsStream(name)) {
            if (in == null) {
                throw new IllegalStateException(name + " is missing from the gantry-api jar");
            }
            // Comment lines are for readers of the resource; the argv every job carries goes without them.
            String text = new String(in.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.strip().startsWith("#")).collect(Collectors.joining("\n", "", "\n"));
            if (!name.endsWith(".sh") && text.indexOf('\'') >= 0) {
                throw new IllegalStateException(name + " has a single quote, which would end its quoting in the script");
            }
            return text;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
