package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.UserHome;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.HostReport;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.model.PlanOverrides;
import dev.gantry.core.backends.BackendRegistry;
import dev.gantry.core.backends.CoreBackendContext;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.runs.azure.AzureModule;
import dev.gantry.runs.azure.AzureSources;
import dev.gantry.core.config.ConfigLoader;
import dev.gantry.core.config.ConfigSources;
import dev.gantry.core.config.GantryConfig;
import dev.gantry.core.config.RunSettings;
import dev.gantry.model.JobEvent;
import dev.gantry.model.JobRecord;
import dev.gantry.runs.jobs.JobService;
import dev.gantry.runs.jobs.LazyJobStore;
import dev.gantry.core.jobs.JobStore;
import dev.gantry.runs.state.SqlJobStore;
import dev.gantry.runs.state.SqlRunStore;
import dev.gantry.runs.provision.VmInventory;
import dev.gantry.runs.engine.RunEngine;
import dev.gantry.model.WorkflowDefinition;
import dev.gantry.model.WorkflowPlan;
import dev.gantry.runs.state.StateDatabase;
import dev.gantry.model.SpecDocument;
import dev.gantry.core.wiring.CoreServices;
import dev.gantry.core.wiring.CoreWiring;
import dev.gantry.core.wiring.GantrySettings;
import dev.gantry.core.plugins.PluginPlaces;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.model.Progress;
import dev.gantry.model.CatalogSummary;
import dev.gantry.model.RunProvenance;
import dev.gantry.model.SpecCheck;
import dev.gantry.core.spec.SpecReader;
import dev.gantry.runs.engine.ProvenanceCapture;
import dev.gantry.api.CatalogInfo;
import java.util.OptionalInt;
import java.nio.file.Path;
import java.util.Collection;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiConsumer;
import java.util.function.Supplier;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The entry point for programs: load and validate specs, plan them, run them on the configured backend and follow
 * their jobs. Thread-safe; close it to close the backends it opened.
 *
 * <pre>{@code
 * try (Gantry gantry = Gantry.builder().build()) {
 *     Workload workload = gantry.load(Path.of("train.yaml"));
 *     JobRecord job = gantry.run(workload);
 *     gantry.await(job.id(), Duration.ofHours(12));
 * }
 * }</pre>
 */
public final class Gantry implements AutoCloseable {
    private final CoreServices services;
    private final Planner planner;
    private final OpenBackends backends;
    private final JobStore jobStore;
    private final JobService jobs;
    private Runs runs;
    private final Map<CapacityKey, SubscriptionCapacity> capacities = new java.util.concurrent.ConcurrentHashMap<>();

    private Gantry(CoreServices services) {
        this.services = services;
        this.planner = new Planner(services);
        this.backends = new OpenBackends(services);
        // The state database (SQLite in state.dir, or the PostgreSQL server of state.url), opened on first use, with
        // the one-file-per-job records of an earlier Gantry imported then.
        this.jobStore = new LazyJobStore(() -> SqlJobStore.open(services.config(), services.secrets()));
        this.jobs = new JobService(jobStore, backends::backend, services.clock());
    }

    /** {@return a builder that looks configuration up as the CLI does; see {@link Builder}} */
    public static Builder builder() {
        return new Builder();
    }

    /** {@return this Gantry's version, as built, e.g. {@code 0.1.0}; recorded with every run} */
    public static String version() {
        return BuildVersion.VALUE;
    }

    /** {@return the configuration in force (file, environment and overrides merged)} */
    public GantryConfig config() {
        return services.config();
    }

    /** {@return the name of the backend the configuration names ({@code backend:}), which jobs and runs go to} */
    public String backendName() {
        return services.config().backend();
    }

    /** {@return the directory where job records, run records and event logs live ({@code state.dir})} */
    public Path stateDirectory() {
        return services.config().stateDirectory();
    }

    /** {@return the most jobs one workflow may expand to ({@code runs.maxJobs})} */
    public int maxJobs() {
        return services.config().runs().maxJobs();
    }

    /**
     * Checks a spec of either kind without a configuration, a backend or a catalog: every located problem, and for a
     * valid workflow its job count. {@code maxJobs} is the most jobs a workflow may expand to; empty takes the
     * default of {@code runs.maxJobs}, so that a configuration that cannot be read does not hide the spec's problems.
     *
     * @param spec the spec file, a workload or a workflow
     * @param maxJobs the most jobs a workflow may expand to, or empty for the default
     * @return the document when it is valid, and every problem found with its location
     */
    public static SpecCheck checkSpec(Path spec, OptionalInt maxJobs) {
        SpecReader.Result result = new SpecReader(maxJobs.orElse(RunSettings.DEFAULT_MAX_JOBS)).check(spec);
        return new SpecCheck(result.document(), result.problems());
    }

    /** {@return the catalog this build ships (not the refresh cache): its source and date} Loads no Azure SDK class. */
    public static CatalogInfo embeddedCatalog() {
        return CatalogLoader.embedded().info();
    }

    /** {@return what {@link #catalog()} holds, as {@code gantry catalog show} prints it: source, age, sizes, regions} */
    public CatalogSummary catalogSummary() {
        return catalog().summarize(services.clock());
    }

    /**
     * What a run of the workflow would record it was made from (spec and referenced files' hash, git commit, the
     * catalog of its plan, this version), without starting it: {@code gantry plan} shows it.
     *
     * @param spec the workflow's spec file, whose hash is recorded
     * @param workflow the workflow read from it, for the files it references
     * @param plan its plan, for the catalog its first step used
     * @return the provenance a run would record
     */
    public RunProvenance provenance(Path spec, SpecDocument.WorkflowSpec workflow, WorkflowPlan plan) {
        return ProvenanceCapture.capture(spec, workflow.referencedFiles(), plan.steps().get(0).plan().catalog(),
                BuildVersion.VALUE);
    }

    /** {@return the installed backend providers, sorted by name} */
    public List<BackendProvider> backends() {
        return backends.registry().providers();
    }

    /**
     * Every backend with where it came from (built in, or a plugin's jar) and its version, the plugins that failed to
     * load with why, and the places searched for plugins: what {@code gantry backends} lists.
     *
     * @return the installed backends, the failed plugins and the plugin directories
     */
    public dev.gantry.model.InstalledBackends installedBackends() {
        return backends.registry().installed(BuildVersion.VALUE);
    }

    /**
     * Reads and validates a workload spec.
     *
     * @param spec the workload's YAML file
     * @return the workload
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} listing every located problem
     */
    public Workload load(Path spec) {
        return planner.load(spec);
    }

    /**
     * Reads and validates a spec of either kind: a workload, or a workflow of steps (each step's workload bound, its
     * file references read).
     *
     * @param spec the YAML file
     * @return the workload or the workflow it holds
     * @throws GantryException {@link ErrorCode#SPEC_INVALID} listing every located problem
     */
    public SpecDocument loadAny(Path spec) {
        return planner.loadAny(spec);
    }

    /**
     * Every problem in a workload spec file.
     *
     * @param spec the YAML file
     * @return every problem with its location; empty when it is valid
     */
    public List<Problem> validate(Path spec) {
        return planner.validate(spec);
    }

    /**
     * {@return the catalog plans are made from} The builder's catalog, else the configured file, else the refresh
     * cache when there is one, else the embedded snapshot; loaded on first use.
     */
    public Catalog catalog() {
        return planner.catalog();
    }

    /**
     * Chooses size, region, capacity, image and orchestrator, with the reasons and the alternatives that lost.
     *
     * @param workload what to plan
     * @return the plan
     * @throws GantryException {@link ErrorCode#NO_FEASIBLE_VM} when no size in the catalog fits
     */
    public Plan plan(Workload workload) {
        return plan(workload, PlanOverrides.none());
    }

    /**
     * The same with the command line's overrides. The plan carries what its nodes run at boot
     * ({@link Plan#boot()}: Gantry's cloud-init config for the image, the Batch node agent that fits it and the
     * start-task script).
     *
     * @param workload what to plan
     * @param overrides the size, region or Spot choice the command line forces; {@link PlanOverrides#none()} for none
     * @return the plan
     * @throws GantryException {@link ErrorCode#NO_FEASIBLE_VM} when nothing fits
     */
    public Plan plan(Workload workload, PlanOverrides overrides) {
        return planner.plan(workload, overrides);
    }

    /**
     * The same within what a subscription allows: sizes it is not offered, sizes not allocatable in the zones the
     * workload asks, and candidates its vCPU quotas (less usage) cannot hold are lost, and the next best feasible one
     * wins; the plan's reasons give each region lost to quota with its figures, and {@link Plan#zones()} the zones
     * its VMs may use. Without a subscription the plan is as {@link #plan(Workload, PlanOverrides)} makes it and says
     * that quota and zones were not checked.
     *
     * <p>What a subscription allows is read with {@code DefaultAzureCredential} as the search needs it: the sizes it
     * is offered in a region with their zones (Resource SKUs, read once per region) and its vCPU quotas with their
     * usage (Compute usages, kept {@link SubscriptionCapacity#USAGES_KEPT} across plans), shared by every plan of
     * this Gantry.
     *
     * @param workload what to plan
     * @param overrides what the command line forces
     * @param subscription the Azure subscription id to ask, or empty
     * @return the plan
     * @throws GantryException {@link ErrorCode#NO_FEASIBLE_VM} when nothing fits; {@link ErrorCode#AUTH_FAILED} or
     *     {@link ErrorCode#REMOTE_ERROR} when the subscription cannot be read; {@link ErrorCode#USAGE} when the
     *     Azure module is not on the class path
     */
    public Plan plan(Workload workload, PlanOverrides overrides, Optional<String> subscription) {
        return planner.plan(workload, overrides, subscription.map(id -> capacity(null, id)));
    }

    /**
     * {@link #plan(Workload, PlanOverrides, Optional)} with the subscription read through {@code azure} (another
     * cloud, another credential, a test's fake).
     *
     * @param workload what to plan
     * @param overrides what the command line forces
     * @param azure the connection to Azure Resource Manager
     * @param subscription the Azure subscription id to ask
     * @return the plan
     * @throws GantryException as {@link #plan(Workload, PlanOverrides, Optional)}
     */
    public Plan plan(Workload workload, PlanOverrides overrides, ArmConnector azure, String subscription) {
        return planner.plan(workload, overrides, Optional.of(capacity(Objects.requireNonNull(azure, "azure"),
                subscription)));
    }

    /**
     * Plans every job of a workflow (each step, or each combination of its matrix) with the advisor, dependencies
     * first. A step that cannot be planned fails the whole plan, naming the step: nothing of a workflow should start
     * when one of its later steps can never run.
     *
     * @param workflow the workflow, as {@link #loadAny} read it
     * @param overrides what the command line forces for every job
     * @return the plan of every job, dependencies first
     * @throws GantryException {@link ErrorCode#NO_FEASIBLE_VM} naming the step that cannot be planned
     */
    public WorkflowPlan plan(WorkflowDefinition workflow, PlanOverrides overrides) {
        return planner.plan(workflow, overrides);
    }

    /**
     * Every job of a workflow planned within what a subscription allows (see
     * {@link #plan(Workload, PlanOverrides, Optional)}); its steps share what was read of each region.
     *
     * @param workflow the workflow
     * @param overrides what the command line forces for every job
     * @param subscription the Azure subscription id to ask, or empty
     * @return the plan of every job, dependencies first
     * @throws GantryException as {@link #plan(WorkflowDefinition, PlanOverrides)}, and AUTH_FAILED or REMOTE_ERROR
     *     when the subscription cannot be read, USAGE when the Azure module is not on the class path
     */
    public WorkflowPlan plan(WorkflowDefinition workflow, PlanOverrides overrides, Optional<String> subscription) {
        return planner.plan(workflow, overrides, subscription.map(id -> capacity(null, id)));
    }

    /**
     * {@link #plan(WorkflowDefinition, PlanOverrides, Optional)} with the subscription read through {@code azure}.
     *
     * @param workflow the workflow
     * @param overrides what the command line forces for every job
     * @param azure the connection to Azure Resource Manager
     * @param subscription the Azure subscription id to ask
     * @return the plan of every job, dependencies first
     * @throws GantryException as {@link #plan(WorkflowDefinition, PlanOverrides, Optional)}
     */
    public WorkflowPlan plan(WorkflowDefinition workflow, PlanOverrides overrides, ArmConnector azure,
                             String subscription) {
        return planner.plan(workflow, overrides, Optional.of(capacity(Objects.requireNonNull(azure, "azure"),
                subscription)));
    }

    /**
     * One capacity per connection and subscription for the life of this Gantry, so that its plans share what was
     * read; {@code azure} null for {@code DefaultAzureCredential}, made only when a region is first read.
     */
    private SubscriptionCapacity capacity(ArmConnector azure, String subscription) {
        AzureModule.require("the quota and zone checks");
        return capacities.computeIfAbsent(new CapacityKey(azure, subscription), key -> AzureSources.capacity(
                azure != null ? azure : ArmConnector.defaultAzureCredential(), subscription, services.clock()));
    }

    /**
     * From now on, every plan this Gantry makes without a subscription of its own keeps to {@code subscription}, as
     * {@link #plan(Workload, PlanOverrides, ArmConnector, String)} does: {@link #plan(Workload)},
     * {@link #plan(Workload, PlanOverrides)}, {@link #run(Workload)}, {@link #plan(WorkflowDefinition, PlanOverrides)},
     * and the run engine's plans of a workflow's steps and its re-plans of moved attempts ({@link #runs()}). They share
     * what was read of each region. When the subscription cannot be read (no sign-in, no role, no answer, the Azure
     * module missing), each plan is made without it, as before, says in its Q1 reason that quota and zones were not
     * checked, and {@code notChecked} hears what was planned and why.
     *
     * @param subscription the Azure subscription id to ask
     * @param azure the connection to Azure Resource Manager, asked for when a plan first reads the subscription; it
     *     may throw {@link GantryException} (AUTH_FAILED, USAGE), which counts as a subscription not read
     * @param notChecked told the name of the workload or workflow planned without the subscription, and why
     * @throws GantryException {@link ErrorCode#USAGE} when {@code subscription} is blank
     */
    public void planWithin(String subscription, Supplier<ArmConnector> azure, BiConsumer<String, String> notChecked) {
        if (subscription == null || subscription.isBlank()) {
            throw new GantryException(ErrorCode.USAGE, "subscription: must be an Azure subscription id, got "
                    + (subscription == null ? "null" : "'" + subscription + "'") + "; give the id "
                    + "(AZURE_SUBSCRIPTION_ID), or do not call planWithin to plan without one");
        }
        Objects.requireNonNull(azure, "azure");
        planner.planWithin(new Planner.Within(new Supplier<>() {
            // The connection once made is kept: the capacities are shared per connection, and a supplier may make
            // a new one each time. One that failed is asked again by the next plan.
            private ArmConnector connected;

            @Override
            public synchronized SubscriptionCapacity get() {
                if (connected == null) {
                    connected = Objects.requireNonNull(azure.get(), "azure.get()");
                }
                return capacity(connected, subscription);
            }
        }, Objects.requireNonNull(notChecked, "notChecked")));
    }

    /** A connection (null for the default credential) and a subscription; connections compare by identity. */
    private record CapacityKey(ArmConnector azure, String subscription) {
    }

    /**
     * Plans the workload and submits it to the configured backend, with a fresh job id.
     *
     * @param workload what to run
     * @return the job's record, as saved after the submit
     * @throws GantryException as {@link #plan(Workload)} and {@link #submit(SubmitRequest)} do
     */
    public JobRecord run(Workload workload) {
        return submit(SubmitRequest.of(plan(workload)));
    }

    /**
     * Submits a plan to the configured backend after the backend validated it; nothing is submitted when it has
     * problems (PLAN_REJECTED, listing them). With an idempotency key, a retry returns the same job; without one the
     * job gets a fresh id. The request's labels are added to the workload's and kept in the job's record.
     *
     * @param request the plan with its idempotency key, spec file and labels
     * @return the job's record, as saved after the submit
     * @throws GantryException {@link ErrorCode#PLAN_REJECTED} listing the backend's problems with the plan; the
     *     backend's own error when the submit fails
     */
    public JobRecord submit(SubmitRequest request) {
        Plan plan = request.labelledPlan();
        String backendName = config().backend();
        Backend backend = backend(backendName);
        List<Problem> problems = new ArrayList<>(backend.validate(plan));
        problems.addAll(StartChecks.problems(plan));
        if (!problems.isEmpty()) {
            throw new GantryException(ErrorCode.PLAN_REJECTED, "backend '" + backendName + "' cannot run '"
                    + plan.workload().name() + "':\n" + String.join("\n", problems.stream().map(Problem::toString)
                    .toList()), problems, null);
        }
        String id = request.idempotencyKey().orElseGet(() -> jobs.newJobId(plan.workload().name()));
        return jobs.submit(plan, backendName, id, request.specFile().map(Path::toString));
    }

    /**
     * Submits a plan with an optional idempotency key and spec file.
     *
     * @deprecated two optional strings in a row are easy to swap; use {@link #submit(SubmitRequest)}, naming each
     *     part: {@code submit(SubmitRequest.of(plan).idempotencyKey(key).specFile(Path.of(spec)))}. This method
     *     builds that request and submits it.
     * @param plan what to run
     * @param idempotencyKey the job id to retry under, or empty for a fresh one
     * @param specFile the spec file's path to record, or empty
     * @return the job's record
     */
    @Deprecated(since = "0.1.0")
    public JobRecord submit(Plan plan, Optional<String> idempotencyKey, Optional<String> specFile) {
        SubmitRequest request = SubmitRequest.of(plan);
        if (idempotencyKey.isPresent()) {
            request = request.idempotencyKey(idempotencyKey.get());
        }
        if (specFile.isPresent()) {
            request = request.specFile(Path.of(specFile.get()));
        }
        return submit(request);
    }

    /**
     * Workflow runs: start or resume, drive, follow, cancel and explain them. Runs share the state database with the
     * job records.
     *
     * @return the runs, opened on first call and closed with this Gantry
     */
    public synchronized Runs runs() {
        if (runs == null) {
            RunSettings configured = config().runs();
            // The lease outlives several polls, so a slow poll (a backend taking its time) does not lose it.
            Duration lease = configured.pollInterval().multipliedBy(4).compareTo(Duration.ofMinutes(2)) > 0
                    ? configured.pollInterval().multipliedBy(4) : Duration.ofMinutes(2);
            // Where workflow runs live: the same database as the job records, opened when a run is first asked for.
            runs = new Runs(planner, backends, SqlRunStore.open(config(), services.secrets(), services.clock()), jobs, services.clock(), new RunEngine.Settings(
                    configured.pollInterval(), lease, configured.onDemandAfterEvictions(),
                    configured.nextRegionAfterEvictions()));
        }
        return runs;
    }

    /**
     * One job, its status refreshed from its backend.
     *
     * @param id the job's id
     * @return its record
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} when no job has that id
     */
    public JobRecord job(String id) {
        return jobs.job(id);
    }

    /** {@return all known jobs, oldest first, as the state database holds them: no backend is asked (shell completion)} */
    public List<JobRecord> storedJobs() {
        return jobs.stored();
    }

    /**
     * Whether there is a state database to read: a configured server ({@code state.url}), or the SQLite file in the
     * state directory. Reading jobs or runs creates the SQLite file when it is absent; a caller that only looks
     * (shell completion) asks this first, so that looking leaves nothing behind.
     *
     * @return whether a state database exists
     */
    public boolean stateExists() {
        return config().stateServer().isPresent() || StateDatabase.sqliteExists(config().stateDirectory());
    }

    /** {@return all known jobs, oldest first, unfinished ones refreshed with one status call per backend} */
    public List<JobRecord> jobs() {
        return jobs.jobs();
    }

    /**
     * Delivers a job's output to the sink, from its backend.
     *
     * @param id the job's id
     * @param options which streams, how many lines, and whether to follow until the job ends
     * @param sink where each line goes, on the calling thread
     * @throws InterruptedException when the calling thread is interrupted while following
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} for an unknown id; {@link ErrorCode#USAGE} for
     *     standard error alone on a backend whose logs are merged
     */
    public void logs(String id, LogOptions options, LogSink sink) throws InterruptedException {
        jobs.logs(id, options, sink);
    }

    /**
     * Asks the job's backend to stop it on every node, and records the request.
     *
     * @param id the job's id
     * @return its record afterwards, its status refreshed (CANCELLED once the backend has stopped it)
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} for an unknown id
     */
    public JobRecord cancel(String id) {
        return jobs.cancel(id);
    }

    /**
     * What happened to the job, oldest first: each submit's intent and outcome, each state seen, each cancel.
     *
     * @param id the job's id
     * @return its events; empty for an unknown id
     */
    public List<JobEvent> history(String id) {
        return jobs.history(id);
    }

    /**
     * Probes the configured backend's hosts for what the plan needs (or, without a plan, for their own hardware):
     * drivers, GPUs, container runtime, InfiniBand, CPUs, memory and disk, each with how to fix what is missing.
     *
     * @param plan the plan the hosts must suit, or empty
     * @return one report per host
     * @throws GantryException {@link ErrorCode#BACKEND_UNAVAILABLE} for a backend without hosts of its own
     */
    public List<HostReport> doctor(Optional<Plan> plan) {
        return backend(config().backend()).doctor(plan);
    }

    /**
     * What a backend created that is idle and costs money, or holds quota, until it is released ({@code gantry gc}):
     * pools with no work for their idle timeout, preempted nodes. {@code backend} names the backend; empty asks the
     * configured one. Looks and changes nothing; a backend without such resources reports none.
     *
     * @param backend the backend's name, or empty for the configured one
     * @return the idle resources; empty when none
     */
    public List<IdleResource> idleResources(Optional<String> backend) {
        return backend(backend.orElse(backendName())).idleResources();
    }

    /**
     * Releases one resource {@link #idleResources} reported, on the same backend, after the backend has checked again
     * that nothing uses it.
     *
     * @param backend the backend's name, or empty for the configured one
     * @param resource one that {@link #idleResources} reported
     * @return true when it was released or already gone; false when it was in use again and was kept
     */
    public boolean release(Optional<String> backend, IdleResource resource) {
        return backend(backend.orElse(backendName())).release(Objects.requireNonNull(resource, "resource"));
    }

    /**
     * Waits until the job ends or the timeout passes, polling its status (every 50 ms at first, then up to every
     * second).
     *
     * @param id the job's id
     * @param timeout the longest to wait
     * @return its latest record: ended, or still running when the timeout passed
     * @throws InterruptedException when the calling thread is interrupted while waiting
     * @throws GantryException {@link ErrorCode#JOB_NOT_FOUND} for an unknown id
     */
    public JobRecord await(String id, Duration timeout) throws InterruptedException {
        long deadline = System.nanoTime() + timeout.toNanos();
        long pause = 50;
        JobRecord record = jobs.job(id);
        while (!record.state().isTerminal() && System.nanoTime() < deadline) {
            Thread.sleep(pause);
            pause = Math.min(pause * 2, 1000);
            record = jobs.job(id);
        }
        return record;
    }

    /**
     * The live backend of that name, created from the configuration on first use and closed with this Gantry.
     *
     * @param name the backend's name, e.g. {@code manual}
     * @return the backend
     * @throws GantryException {@link ErrorCode#UNKNOWN_BACKEND} when none is installed under that name;
     *     {@link ErrorCode#CONFIG_INVALID} when its settings are wrong
     */
    public Backend backend(String name) {
        return backends.backend(name);
    }

    /**
     * The context a backend of that name is created with: its state directory, secrets, clock, provisioned VMs.
     *
     * @param name the backend's name
     * @return its context
     */
    public CoreBackendContext backendContext(String name) {
        return backends.context(name);
    }

    /** {@return the VMs {@code gantry vm up} recorded: {@code vms.json} under {@code STATE_DIR/vms}} */
    public VmInventory vmInventory() {
        return backends.vmInventory();
    }

    /**
     * The VMs Gantry creates for the manual backend, through {@code azure}; notices for the user (what is being
     * created, an inventory moved from an earlier version) go to {@code notices}.
     *
     * @param azure the connection to Azure Resource Manager
     * @param notices where messages for the user go, one line each
     * @return the VM operations
     * @throws GantryException {@link ErrorCode#USAGE} when the Azure module ({@code dev.gantry:gantry-azure}) is not
     *     on the class path
     */
    public Vms vms(ArmConnector azure, Consumer<String> notices) {
        AzureModule.require("VM provisioning (vm up, vm down)");
        return new Vms(planner, backends, azure, services.settings().home(), notices);
    }

    /**
     * Every vCPU quota of the subscription the plan would exceed in its region (Compute usages, read with
     * {@code DefaultAzureCredential}); empty when it fits.
     *
     * @param plan the plan whose size, region, nodes and Spot choice are checked
     * @param subscription the Azure subscription id
     * @return one problem per quota exceeded
     * @throws GantryException {@link ErrorCode#USAGE} when the Azure module is not on the class path;
     *     {@link ErrorCode#AUTH_FAILED} or {@link ErrorCode#REMOTE_ERROR} when Azure refuses
     */
    public List<Problem> quotaProblems(Plan plan, String subscription) {
        AzureModule.require("the quota check");
        return AzureSources.quotaChecker(subscription).check(plan.region(), plan.vmSize().name(), plan.nodes(),
                plan.spot());
    }

    /**
     * Refreshes the VM catalog from Azure (the public Retail Prices API; with a subscription, also the Resource SKUs
     * it is offered) for the regions, writes it to the user's catalog cache ({@code ~/.gantry/catalog}), where later
     * plans find it, and returns it; each page of prices read and the sizes priced go to {@code progress}.
     *
     * @param subscription the subscription whose Resource SKUs to read, or empty for prices only
     * @param regions the Azure regions to refresh, e.g. {@code eastus}
     * @param progress where progress goes
     * @return the refreshed catalog
     * @throws GantryException USAGE when the Azure module ({@code dev.gantry:gantry-azure}) is not on the class path
     */
    public Catalog refreshCatalog(Optional<String> subscription, Collection<String> regions, Progress progress) {
        AzureModule.require("live catalog refresh");
        return AzureSources.refresher(subscription).refreshTo(catalogCache(), regions, progress);
    }

    /**
     * {@link #refreshCatalog}, answered as {@code gantry catalog refresh} prints it.
     *
     * @param subscription the subscription whose Resource SKUs to read, or empty
     * @param regions the regions to refresh
     * @param progress where progress goes
     * @return the summary of the refreshed catalog
     */
    public CatalogSummary refreshCatalogSummary(Optional<String> subscription, Collection<String> regions,
            Progress progress) {
        return refreshCatalog(subscription, regions, progress).summarize(services.clock());
    }

    /** {@return the file {@link #refreshCatalog} writes and later plans read: {@code catalog.csv} in {@code ~/.gantry/catalog}} */
    public Path catalogCacheFile() {
        return catalogCache().resolve(CatalogLoader.CACHE_FILE);
    }

    private Path catalogCache() {
        return services.settings().home().resolve(".gantry").resolve("catalog");
    }

    /** {@return the installed backends by name (the providers ServiceLoader found plus those added in code)} */
    public BackendRegistry registry() {
        return backends.registry();
    }

    @Override
    public synchronized void close() {
        List<RuntimeException> failures = backends.close();
        try {
            jobStore.close(); // opened again if this Gantry is used after all
        } catch (RuntimeException e) {
            failures.add(e);
        }
        if (runs != null) {
            try {
                runs.close();
            } catch (RuntimeException e) {
                failures.add(e);
            }
            runs = null;
        }
        if (!failures.isEmpty()) {
            RuntimeException first = failures.get(0);
            failures.stream().skip(1).forEach(first::addSuppressed);
            throw first;
        }
    }

    /**
     * Builds a {@link Gantry}. Configuration comes from code ({@link #config}), or is looked up like the CLI does:
     * {@link #configFile} (the {@code --config} flag), then {@code ./gantry.yaml}, then
     * {@code ~/.gantry/config.yaml}, then built-in defaults; {@code GANTRY_*} environment variables and
     * {@link #override overrides} win over files.
     */
    public static final class Builder {
        private GantryConfig config;
        private Optional<Path> configFile = Optional.empty();
        private Map<String, String> environment = System.getenv();
        private Path workingDirectory = Path.of("").toAbsolutePath();
        private Path home = UserHome.ofProcess();
        private final Map<String, String> overrides = new LinkedHashMap<>();
        private final List<BackendProvider> providers = new ArrayList<>();
        private boolean discoverBackends = true;
        private Optional<List<Path>> pluginDirectories = Optional.empty();
        private Catalog catalog;
        private Clock clock = Clock.systemUTC();

        private Builder() {
        }

        /**
         * Uses this configuration as it is (no files, no environment overrides).
         *
         * @param value the configuration
         * @return this builder
         * @throws NullPointerException when {@code value} is null
         */
        public Builder config(GantryConfig value) {
            this.config = Objects.requireNonNull(value, "config");
            return this;
        }

        /**
         * Reads configuration from this file first, as the CLI's {@code --config} does.
         *
         * @param file the YAML file; it must exist when {@link #build()} reads it
         * @return this builder
         */
        public Builder configFile(Path file) {
            this.configFile = Optional.of(file);
            return this;
        }

        /**
         * The environment to read {@code GANTRY_*} overrides and {@code HOME} from; default this process's.
         *
         * @param values the variables, copied
         * @return this builder
         */
        public Builder environment(Map<String, String> values) {
            this.environment = Map.copyOf(values);
            return this;
        }

        /**
         * The directory {@code ./gantry.yaml} and relative paths are resolved against; default the process's.
         *
         * @param dir the directory, made absolute
         * @return this builder
         */
        public Builder workingDirectory(Path dir) {
            this.workingDirectory = dir.toAbsolutePath();
            return this;
        }

        /**
         * The home directory for {@code ~/.gantry} and {@code ~} in settings; default {@link UserHome#ofProcess()}.
         *
         * @param dir the home directory
         * @return this builder
         */
        public Builder home(Path dir) {
            this.home = dir;
            return this;
        }

        /**
         * A configuration value that wins over files and environment, e.g. {@code backend} → {@code manual}.
         *
         * @param key the dotted key, e.g. {@code backends.manual.hosts[0].address}
         * @param value its value
         * @return this builder
         */
        public Builder override(String key, String value) {
            overrides.put(key, value);
            return this;
        }

        /**
         * Adds a backend provider besides those on the class path (for tests and embedding programs).
         *
         * @param provider the provider
         * @return this builder
         * @throws NullPointerException when {@code provider} is null
         */
        public Builder addBackendProvider(BackendProvider provider) {
            providers.add(Objects.requireNonNull(provider, "provider"));
            return this;
        }

        /**
         * Whether to discover providers with ServiceLoader (default true).
         *
         * @param value false to use only the providers added in code
         * @return this builder
         */
        public Builder discoverBackends(boolean value) {
            this.discoverBackends = value;
            return this;
        }

        /**
         * Looks for backend plugins in these places only, in this order, instead of where the {@code gantry} command
         * looks ({@code GANTRY_PLUGIN_PATH}, then {@code $XDG_DATA_HOME/gantry/plugins}): each a directory of plugins
         * or one plugin jar (docs/plugins.md); a relative one is taken from {@link #workingDirectory}. Each must exist:
         * one that does not is reported as a plugin that failed to load ({@link Gantry#installedBackends()}), and the
         * others still load. An empty list loads no plugin. Plugins are looked for only while
         * {@link #discoverBackends} is on, as it is by default.
         *
         * @param places the plugin directories or jars, searched in this order
         * @return this builder
         */
        public Builder pluginDirectories(List<Path> places) {
            Objects.requireNonNull(places, "places");
            for (int i = 0; i < places.size(); i++) {
                Objects.requireNonNull(places.get(i), "places[" + i + "]");
            }
            this.pluginDirectories = Optional.of(List.copyOf(places));
            return this;
        }

        /**
         * Plans from this catalog file (the CLI's {@code --catalog}) instead of the configured or embedded one.
         *
         * @param file the catalog CSV
         * @return this builder
         * @throws GantryException {@link ErrorCode#CATALOG_INVALID} when the file cannot be read as a catalog
         */
        public Builder catalogFile(Path file) {
            return catalog(CatalogLoader.fromFile(file));
        }

        /**
         * Plans from this catalog instead of the configured or embedded one.
         *
         * @param value the catalog, or null for the default
         * @return this builder
         */
        public Builder catalog(Catalog value) {
            this.catalog = value;
            return this;
        }

        /**
         * The clock for timestamps and catalog ages; default the system's, in UTC.
         *
         * @param value the clock
         * @return this builder
         * @throws NullPointerException when {@code value} is null
         */
        public Builder clock(Clock value) {
            this.clock = Objects.requireNonNull(value, "clock");
            return this;
        }

        /**
         * Reads the configuration and wires Gantry; backends, the state database and the catalog open on first use.
         *
         * @return the Gantry, to close when done
         * @throws GantryException {@link ErrorCode#CONFIG_INVALID} listing every problem of the configuration
         */
        public Gantry build() {
            GantryConfig resolved = config != null ? config : new ConfigLoader().load(
                    new ConfigSources(configFile, environment, workingDirectory, home, overrides));
            PluginPlaces plugins = pluginDirectories
                    .map(places -> PluginPlaces.only(places.stream().map(workingDirectory::resolve).toList(),
                            "Gantry.Builder.pluginDirectories"))
                    .orElseGet(() -> PluginPlaces.of(environment, home));
            GantrySettings settings = new GantrySettings(resolved, environment, workingDirectory, home, providers,
                    discoverBackends, Optional.ofNullable(catalog), clock, AzureModule.keyVault(), plugins);
            return new Gantry(CoreWiring.create(settings));
        }
    }
}
