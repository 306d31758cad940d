package dev.gantry.backend.cyclecloud.internal.gridengine;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.cyclecloud.internal.CycleCloudSettings;
import dev.gantry.backend.cyclecloud.internal.PartitionChoice;
import dev.gantry.backend.cyclecloud.internal.login.ClusterBackend;
import dev.gantry.backend.cyclecloud.internal.login.LoginNode;
import dev.gantry.backend.cyclecloud.internal.login.LoginScript;
import dev.gantry.backend.cyclecloud.internal.login.NodeProbes;
import dev.gantry.hosts.probe.ProbeScript;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The CycleCloud backend on a Grid Engine cluster: jobs are Grid Engine batch jobs (qsub, one {@code qstat -xml} per
 * poll and qacct for jobs killed before their script's end, qdel), on one host or several (one rank each, through a
 * parallel environment), with one directory per job on the cluster's shared file system.
 */
public final class GridEngineBackend extends ClusterBackend {
    /** The head's assignment of the hosts a job spans ({@link GridEngineBatchScript#head()}). */
    private static final Pattern NODES = Pattern.compile("(?m)^nodes=(\\d+)$");
    private static final Duration DOCTOR_TIMEOUT = Duration.ofMinutes(10);
    private static final NodeProbes PROBES = new NodeProbes("gridengine", "qsub", "queue", "qconf -sel",
            host -> "the host may have no free slot, be disabled or unreachable: qstat -f -q '*@" + host + "' says "
                    + "which; free it or run gantry doctor again later");

    private final CycleCloudSettings settings;
    private final Capabilities declared;
    private final PartitionChoice queues;
    private final GridEngineCheck check;
    private final GridEngineSubmission submission;

    /**
     * @param declared what the backend can do on any cluster; {@link #capabilities()} narrows it to Grid Engine
     * @param connections what {@link #close()} closes (the SSH pool)
     */
    public GridEngineBackend(LoginNode login, CycleCloudSettings settings, BackendContext context,
                             Capabilities declared, AutoCloseable connections) {
        super(login, settings.workDir(), "Grid Engine", context, connections);
        this.settings = settings;
        this.declared = declared;
        this.queues = new PartitionChoice(settings, context);
        this.check = new GridEngineCheck(login, settings, queues);
        this.submission = new GridEngineSubmission(login, settings, context, queues, check::facts);
    }

    /** No containers, in this version. */
    @Override
    public Capabilities capabilities() {
        return declared.toBuilder().containers(false).build();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        return check.problems(plan);
    }

    @Override
    protected List<JobRef> submitBatches(List<Submission> submissions) {
        return submission.submitAll(submissions);
    }

    @Override
    protected Map<String, JobStatus> statusOf(List<String> ids) {
        List<String> args = new ArrayList<>(List.of(settings.workDir(), login().bin()));
        args.addAll(ids);
        return GridEngineStatusReport.parse(login().run(GridEngineScripts.SCRIPTS.status(), args, Optional.empty()),
                context().clock().instant());
    }

    @Override
    protected LoginScript cancelScript() {
        return GridEngineScripts.SCRIPTS.cancel();
    }

    @Override
    protected long serviceCalls() {
        return queues.calls();
    }

    @Override
    protected Optional<Pattern> nodeCount() {
        return Optional.of(NODES);
    }

    /** Every execution host (in the plan's queue, with a plan), each probed by a one-slot job. */
    @Override
    public List<HostReport> doctor(Optional<Plan> plan) {
        String queue = plan.flatMap(queues::partitionFor).orElse("");
        String output = login().run(GridEngineScripts.SCRIPTS.doctor(), List.of(login().bin(), settings.workDir(),
                queue, ProbeScript.TEXT), Optional.empty(), DOCTOR_TIMEOUT);
        return PROBES.parse(output, settings.workDir(), plan);
    }
}
