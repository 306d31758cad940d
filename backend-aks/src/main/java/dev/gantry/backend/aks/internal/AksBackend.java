package dev.gantry.backend.aks.internal;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import dev.gantry.backend.aks.internal.logs.JobLogs;
import dev.gantry.backend.aks.internal.pools.AzureModule;
import dev.gantry.backend.aks.internal.pools.PoolKeeper;
import dev.gantry.backend.aks.internal.render.JobIdentity;
import dev.gantry.backend.aks.internal.status.JobRecords;
import dev.gantry.backend.aks.internal.status.JobStatuses;
import dev.gantry.backend.aks.internal.submit.JobSubmitter;
import dev.gantry.backend.aks.internal.submit.ParallelSubmit;
import dev.gantry.backend.aks.internal.validate.ClusterProbe;
import dev.gantry.backend.aks.internal.validate.PlanCheck;
import io.fabric8.kubernetes.client.KubernetesClientException;
import java.net.HttpURLConnection;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;

/**
 * The aks backend: one Kubernetes Job per workload in the configured namespace. Wires the thin adapters (the
 * client, the informers, the log streams) to the pure renderers and the status table; what identifies a job is its
 * name (from the idempotency key) on the cluster and its record in the state directory, so a later instance over the
 * same settings and state directory answers for every job this one submitted.
 */
public final class AksBackend implements Backend {
    /** How long the first status call waits for the informers' first LIST before answering UNKNOWN. */
    static final Duration SYNC_WAIT = Duration.ofSeconds(30);
    /** How often following logs looks for replacement pods and the job's end. */
    static final Duration LOG_POLL = Duration.ofMillis(500);

    private final Capabilities capabilities;
    private final AksSettings settings;
    private final BackendContext context;
    private final KubeConnection connection;
    private final JobRecords records;
    private final JobStatuses statuses;
    private final JobSubmitter submitter;
    private final JobLogs logs;
    private final ClusterProbe probe;
    private final PoolKeeper pools;

    /** The backend over the settings; USAGE naming the Azure module when {@code azure.*} needs it and it is missing. */
    public AksBackend(Capabilities capabilities, AksSettings settings, BackendContext context, String version) {
        this(capabilities, settings, context, version, AzureModule.keeper(settings, context.logger()));
    }

    /** The backend with the node pools of its plans made by {@code pools} (tests: against a fake Resource Manager). */
    public AksBackend(Capabilities capabilities, AksSettings settings, BackendContext context, String version,
                      PoolKeeper pools) {
        this.capabilities = capabilities;
        this.settings = settings;
        this.context = context;
        this.connection = KubeConnection.open(settings);
        this.records = new JobRecords(context.stateDirectory());
        this.statuses = new JobStatuses(connection, records, settings.gangTimeout(), SYNC_WAIT, context.clock());
        this.pools = pools;
        this.submitter = new JobSubmitter(connection, settings, context.secrets(), records, version, pools);
        this.logs = new JobLogs(connection, statuses, LOG_POLL);
        this.probe = new ClusterProbe(connection, settings, context.logger());
        settings.warnings().forEach(warning -> context.logger().log(System.Logger.Level.WARNING, warning));
    }

    @Override
    public String name() {
        return "aks";
    }

    @Override
    public Capabilities capabilities() {
        return capabilities;
    }

    @Override
    public List<Problem> validate(Plan plan) {
        List<Problem> problems = new ArrayList<>(PlanCheck.offline(plan, settings));
        problems.addAll(PlanCheck.against(plan, settings, probe.facts(plan)));
        return problems;
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        return submitter.submit(plan, options);
    }

    /**
     * Each distinct size and priority's node pool first, in order, so that a pool Azure refuses leaves nothing
     * submitted; then the jobs, at most {@value ParallelSubmit#IN_FLIGHT} at a time, finding their pools known.
     */
    @Override
    public List<JobRef> submitAll(List<Submission> submissions) {
        submissions.forEach(submission -> pools.ensure(submission.plan()));
        return ParallelSubmit.submitAll(s -> submitter.submit(s.plan(), s.options()), submissions);
    }

    @Override
    public JobStatus status(JobRef job) {
        return statuses.status(job);
    }

    @Override
    public Map<JobRef, JobStatus> statuses(Collection<JobRef> jobs) {
        return statuses.statuses(jobs);
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) throws InterruptedException {
        logs.logs(job, options, sink);
    }

    /**
     * Records CANCELLED, marks the Job with the time (its pods' ends are Gantry's doing, not evictions) and deletes
     * it with foreground propagation; the job reports CANCELLED once no pod of it is left. An ended job is left as
     * it is.
     */
    @Override
    public void cancel(JobRef job) {
        if (statuses.status(job).state().isTerminal()) {
            return;
        }
        String name = job.id();
        Instant now = context.clock().instant();
        records.cancel(name, now);
        String patch = "{\"metadata\":{\"annotations\":{\"" + JobIdentity.CANCELLED_AT + "\":\"" + now + "\"}}}";
        try {
            connection.ensureReachable();
            connection.patchJob(name, patch);
        } catch (KubernetesClientException e) {
            if (e.getCode() != HttpURLConnection.HTTP_NOT_FOUND) { // gone already: nothing left to mark
                throw connection.failure("marking Job " + name + " cancelled", e);
            }
        }
        statuses.delete(name); // a Job that is gone already answers an empty list, not an error
    }

    @Override
    public OptionalLong remoteCalls() {
        return OptionalLong.of(connection.requests());
    }

    @Override
    public void close() {
        statuses.close();
        connection.close();
    }
}
