package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.SecretRef;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.EvictionHandling;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.Set;
import java.util.function.Supplier;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The conformance kit: the behaviour every backend owes core, as JUnit 5 cases. A backend's test class extends this
 * class and returns its {@link BackendFixture}; the kit creates the backend once per class and drives it only
 * through {@link Backend}. Jobs run POSIX commands (printf, sh, sleep, cat, tr, printenv, pwd); sleeps are short and
 * every wait has the fixture's deadline.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
public abstract class BackendConformanceTest {
    private static final Duration POLL = Duration.ofMillis(50);
    private static final String TICKER = "while :; do echo tick; sleep 0.1; done";

    /**
     * Arguments that a shell would change if a backend ever let one interpret them. Each must arrive verbatim.
     */
    protected static final List<String> HOSTILE_ARGUMENTS = List.of(
            "two words", "  leading and trailing  ", "it's", "say \"hi\"", "$HOME", "${PATH}", "$(id)", "`id`",
            "line one\nline two", "a;b", "a && b", "a | b", "*", "?", "[a]", "~", "~root", "-n", "--flag=x", "",
            "héllo wörld ✓ 日本", "back\\slash", "\\n", "tab\there", "#comment", "a>b", "<in", "!bang", "100%",
            "%s %d", "=", "end\\");

    private final List<JobRef> submitted = new CopyOnWriteArrayList<>();
    private BackendFixture fixture;
    private TckContext context;
    private Backend backend;
    private ExecutorService followers;

    /** The environment the kit runs against. */
    protected abstract BackendFixture fixture();

    @BeforeAll
    final void startBackend() {
        fixture = fixture();
        context = TckContext.create();
        backend = fixture.create(context);
        followers = Executors.newCachedThreadPool();
    }

    @AfterAll
    final void stopBackend() {
        try {
            for (JobRef job : submitted) {
                try {
                    backend.cancel(job);
                } catch (RuntimeException ignored) {
                    // Best effort: a case may have asserted on a job the backend no longer has.
                }
            }
            backend.close();
        } finally {
            followers.shutdownNow();
            context.close();
        }
    }

    /** The backend under test, for subclasses adding their own cases. */
    protected final Backend backend() {
        return backend;
    }

    /** The context the backend was created with. */
    protected final TckContext context() {
        return context;
    }

    // ---- capabilities and validation

    @Test
    void capabilitiesAreDeclared() {
        Capabilities caps = backend.capabilities();
        assertNotNull(caps, "capabilities()");
        assertNotNull(backend.name(), "name()");
        assertFalse(backend.name().isBlank(), "name() must not be blank");
        assertFalse(caps.gpuVendors().contains(GpuVendor.ANY),
                "gpuVendors lists the vendors that can be scheduled; ANY is a request, not a vendor: " + caps);
    }

    @Test
    void validateAcceptsTheFixturePlan() {
        List<Problem> problems = backend.validate(fixture.plan(workload("validate").command("true").build()));
        assertEquals(List.of(), problems, "the fixture's plan for a trivial workload must be runnable");
    }

    @Test
    void backendWithoutContainersRejectsContainerPlans() {
        Plan plan = fixture.plan(workload("container").command("true").container("ubuntu:22.04").build());
        List<Problem> problems = backend.validate(plan);
        if (backend.capabilities().containers()) {
            assertTrue(problems.stream().noneMatch(p -> p.path().startsWith("container")),
                    "capabilities say containers are supported, yet validate rejects the container: " + problems);
        } else {
            assertTrue(problems.stream().anyMatch(p -> p.path().startsWith("container")),
                    "capabilities say no containers, so validate must name the container as the problem: " + problems);
        }
    }

    @Test
    void singleNodeBackendRejectsMultiNodePlans() {
        Workload w = workload("nodes").command("true").resources(Resources.builder().nodes(2).build()).build();
        Plan plan = Plan.builder(w, fixture.plan(w).vmSize()).nodes(2).build();
        List<Problem> problems = backend.validate(plan);
        boolean rejected = problems.stream().anyMatch(p -> p.path().contains("nodes"));
        assertEquals(!backend.capabilities().multiNode(), rejected,
                "multiNode=" + backend.capabilities().multiNode() + " but validate of a 2-node plan said " + problems);
    }

    // ---- arguments, environment, secrets, working directory

    @Test
    void argumentsArriveVerbatim() throws Exception {
        List<String> argv = new ArrayList<>(List.of("printf", "<%s>\\n"));
        argv.addAll(HOSTILE_ARGUMENTS);
        JobRef job = submit(workload("argv").command(argv).build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        String expected = HOSTILE_ARGUMENTS.stream().map(a -> "<" + a + ">").collect(Collectors.joining("\n"));
        assertEquals(expected, text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void environmentValuesArriveVerbatim() throws Exception {
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < HOSTILE_ARGUMENTS.size(); i++) {
            env.put("TCK_VALUE_" + i, HOSTILE_ARGUMENTS.get(i));
        }
        String script = env.keySet().stream().map(name -> "\"$" + name + "\"").collect(Collectors.joining(" "));
        JobRef job = submit(workload("env").command("sh", "-c", "printf '<%s>\\n' " + script).env(env).build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        String expected = HOSTILE_ARGUMENTS.stream().map(a -> "<" + a + ">").collect(Collectors.joining("\n"));
        assertEquals(expected, text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void printenvSeesOneValue() throws Exception {
        JobRef job = submit(workload("printenv").command("printenv", "TCK_ONE").env("TCK_ONE", "a b 'c' \"d\" $e")
                .build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        assertEquals("a b 'c' \"d\" $e", text(job, LogLine.Stream.STDOUT));
    }

    @Test
    void secretsAreResolvedIntoTheEnvironmentAtSubmit() throws Exception {
        String value = "tck-secret-" + UUID.randomUUID();
        SecretRef ref = SecretRef.parse("env:TCK_SECRET_SOURCE");
        context.putSecret(ref, value);
        Workload w = workload("secret").command("sh", "-c", "printf '%s\\n' \"$TCK_TOKEN\" | tr a-z A-Z")
                .secret("TCK_TOKEN", ref).build();
        Plan plan = fixture.plan(w);
        assertFalse(plan.toString().contains(value), "the plan must hold the reference, not the value");
        JobRef job = submit(plan, key("secret"));
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        // The job prints the value upper-cased, so the clear value must appear nowhere the backend stored.
        assertEquals(value.toUpperCase(java.util.Locale.ROOT), text(job, LogLine.Stream.STDOUT));
        assertSecretNotStored(value);
    }

    @Test
    void workingDirectoryIsHonoured() throws Exception {
        String dir = fixture.workingDirectory(context);
        JobRef job = submit(workload("pwd").command("sh", "-c", "pwd").workingDir(dir).build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        assertEquals(dir, text(job, LogLine.Stream.STDOUT));
    }

    // ---- exit codes

    @Test
    void exitZeroSucceeds() throws Exception {
        JobStatus status = awaitEnd(submit(workload("exit0").command("sh", "-c", "exit 0").build()));
        assertState(JobState.SUCCEEDED, status);
        assertEquals(OptionalInt.of(0), status.exitCode());
        assertTrue(status.endedAt().isPresent(), "an ended job reports when it ended: " + status);
    }

    @Test
    void nonZeroExitFailsWithItsCode() throws Exception {
        JobStatus status = awaitEnd(submit(workload("exit3").command("sh", "-c", "exit 3").build()));
        assertState(JobState.FAILED, status);
        assertEquals(OptionalInt.of(3), status.exitCode());
    }

    @Test
    void missingCommandFailsNamingIt() throws Exception {
        String program = "gantry-tck-no-such-command";
        JobStatus status = awaitEnd(submit(workload("missing").command(program, "x").build()));
        assertState(JobState.FAILED, status);
        assertTrue(status.message().contains(program), "the message must name the missing command: " + status);
    }

    // ---- logs

    @Test
    void stdoutAndStderrStayApart() throws Exception {
        JobRef job = submit(workload("streams").command("sh", "-c", "echo out1; echo err1 >&2; echo out2").build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        if (backend.capabilities().mergedLogs()) {
            // One stream: every line arrives, as STDOUT, each stream's lines in their order.
            List<LogLine> merged = collect(job, LogOptions.all());
            assertEquals(List.of(), textOf(merged, LogLine.Stream.STDERR), "mergedLogs reports every line as STDOUT");
            assertEquals(Set.of("out1", "err1", "out2"), Set.copyOf(textOf(merged, LogLine.Stream.STDOUT)));
            List<String> text = textOf(merged, LogLine.Stream.STDOUT);
            assertTrue(text.indexOf("out1") < text.indexOf("out2"), "lines of one stream keep their order: " + text);
            return;
        }
        assertEquals(List.of("out1", "out2"), lines(job, new LogOptions(false, OptionalInt.empty(), true, false)));
        assertEquals(List.of("err1"), lines(job, new LogOptions(false, OptionalInt.empty(), false, true)));
        List<LogLine> all = collect(job, LogOptions.all());
        assertEquals(List.of("out1", "out2"), textOf(all, LogLine.Stream.STDOUT));
        assertEquals(List.of("err1"), textOf(all, LogLine.Stream.STDERR));
    }

    @Test
    void logsTailTheLastLines() throws Exception {
        JobRef job = submit(workload("tail").command("printf", "line1\\nline2\\nline3\\nline4\\nline5\\n").build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        assertEquals(List.of("line4", "line5"), lines(job, new LogOptions(false, OptionalInt.of(2), true, false)));
        assertEquals(List.of("line1", "line2", "line3", "line4", "line5"),
                lines(job, new LogOptions(false, OptionalInt.of(50), true, false)));
    }

    @Test
    void followDeliversLaterLinesAndReturnsWhenTheJobEnds() throws Exception {
        JobRef job = submit(workload("follow").command("sh", "-c", "echo first; sleep 1; echo second; echo third >&2")
                .build());
        awaitOutput(job, out -> out.contains("first"));
        if (!backend.capabilities().followLogs()) {
            GantryException e = assertThrows(GantryException.class, () -> collect(job, LogOptions.following()),
                    "capabilities say logs cannot be followed, so a follow request must fail clearly");
            assertNotNull(e.code());
            return;
        }
        List<LogLine> received = new CopyOnWriteArrayList<>();
        Future<?> follow = followers.submit(() -> {
            backend.logs(job, LogOptions.following(), received::add);
            return null;
        });
        // "second" is written about a second after "first": the follow call is already running by then.
        follow.get(fixture.timeout().toMillis(), TimeUnit.MILLISECONDS);
        assertTrue(backend.status(job).state().isTerminal(), "follow returned before the job ended");
        if (backend.capabilities().mergedLogs()) {
            assertEquals(List.of("first", "second", "third"), textOf(received, LogLine.Stream.STDOUT));
            return;
        }
        assertEquals(List.of("first", "second"), textOf(received, LogLine.Stream.STDOUT));
        assertEquals(List.of("third"), textOf(received, LogLine.Stream.STDERR));
    }

    @Test
    void followStopsWhenInterrupted() throws Exception {
        JobRef job = submit(workload("interrupt").command("sh", "-c", TICKER).build());
        awaitOutput(job, out -> out.contains("tick"));
        if (!backend.capabilities().followLogs()) {
            return; // followDeliversLaterLinesAndReturnsWhenTheJobEnds asserts the refusal
        }
        List<String> unexpected = new CopyOnWriteArrayList<>(); // stack traces: where the backend let it escape
        Thread follower = new Thread(() -> {
            try {
                backend.logs(job, LogOptions.following(), line -> { });
            } catch (InterruptedException expected) {
                // returning early by throwing InterruptedException is what the contract allows
            } catch (Throwable t) {
                java.io.StringWriter trace = new java.io.StringWriter();
                t.printStackTrace(new java.io.PrintWriter(trace));
                unexpected.add(trace.toString());
            }
        }, "tck-follower");
        follower.start();
        try {
            Thread.sleep(300);
            assertTrue(follower.isAlive(), "follow returned while the job was still running");
            follower.interrupt();
            follower.join(fixture.timeout().toMillis());
            assertFalse(follower.isAlive(), "an interrupted follow must return");
            assertEquals(List.of(), unexpected, "an interrupted follow returns or throws InterruptedException only");
            assertEquals(JobState.RUNNING, backend.status(job).state(), "the interruption must not touch the job");
        } finally {
            // Also ends a follow that failed to stop, which would otherwise poll on into (and skew) later cases.
            backend.cancel(job);
        }
    }

    // ---- cancel and eviction

    @Test
    void cancelStopsARunningJob() throws Exception {
        JobRef job = submit(workload("cancel").command("sh", "-c", TICKER).build());
        awaitOutput(job, out -> out.contains("tick"));
        assertEquals(JobState.RUNNING, backend.status(job).state());
        backend.cancel(job);
        JobStatus status = awaitEnd(job);
        assertState(JobState.CANCELLED, status);
        assertSideEffectStopped(job);
        assertState(JobState.CANCELLED, backend.status(job));
        backend.cancel(job); // idempotent
        assertState(JobState.CANCELLED, backend.status(job));
    }

    @Test
    void cancelOfAnEndedJobKeepsItsState() throws Exception {
        JobRef job = submit(workload("cancel-ended").command("sh", "-c", "exit 0").build());
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        backend.cancel(job);
        JobStatus status = backend.status(job);
        assertState(JobState.SUCCEEDED, status);
        assertEquals(OptionalInt.of(0), status.exitCode());
    }

    @Test
    void evictedJobIsPreemptedNeverFailed() throws Exception {
        assumeTrue(fixture.evictionOutcome(backend) == EvictionHandling.ENDS_PREEMPTED,
                "this environment's orchestrator requeues evicted jobs: evictedJobIsRequeuedNeverFailed applies");
        JobRef job = submit(workload("evict").command("sh", "-c", TICKER).build());
        awaitOutput(job, out -> out.contains("tick"));
        fixture.evict(backend, job);
        JobStatus status = awaitEnd(job);
        assertState(JobState.PREEMPTED, status);
        assertSideEffectStopped(job);
        assertState(JobState.PREEMPTED, backend.status(job));
        assertEquals(1, status.evictions(), "a PREEMPTED job counts its eviction: " + status);
        assertTrue(status.lastEviction().isPresent(), "a PREEMPTED job says when and why: " + status);
        assertFalse(status.lastEviction().get().reason().isBlank(), "the eviction's reason: " + status);
    }

    /**
     * A requeueing orchestrator runs the evicted job again by itself: the job never reports FAILED or PREEMPTED, its
     * eviction count rises, and it completes. The job ticks on its first run and exits 0 on the run after.
     */
    @Test
    void evictedJobIsRequeuedNeverFailed() throws Exception {
        assumeTrue(fixture.evictionOutcome(backend) == EvictionHandling.REQUEUES,
                "this environment's orchestrator ends evicted jobs PREEMPTED: evictedJobIsPreemptedNeverFailed applies");
        String marker = fixture.sharedDirectory(context) + "/tck-requeue-" + UUID.randomUUID();
        JobRef job = submit(workload("requeue").command("sh", "-c", "if [ -e \"$1\" ]; then echo second run; exit 0; "
                + "fi; : > \"$1\"; " + TICKER, "sh", marker).build());
        awaitOutput(job, out -> out.contains("tick"));
        fixture.evict(backend, job);
        Set<JobState> seen = EnumSet.noneOf(JobState.class);
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        JobStatus status = backend.status(job);
        int highestCount = status.evictions();
        while (!status.state().isTerminal()) {
            seen.add(status.state());
            if (System.nanoTime() > deadline) {
                fail(job + " did not complete after its requeue within " + fixture.timeout() + "; last " + status);
            }
            Thread.sleep(POLL.toMillis());
            status = backend.status(job);
            assertTrue(status.evictions() >= highestCount, "the eviction count never falls: " + status);
            highestCount = status.evictions();
        }
        assertState(JobState.SUCCEEDED, status);
        assertFalse(seen.contains(JobState.FAILED), "a requeued job is never FAILED: states seen " + seen);
        assertTrue(status.evictions() >= 1, "the requeue is counted: " + status);
        assertTrue(status.lastEviction().isPresent(), "the last eviction says when and why: " + status);
    }

    // ---- idempotency and bulk status

    @Test
    void sameIdempotencyKeyYieldsOneJob() throws Exception {
        Plan plan = fixture.plan(workload("once").command("sh", "-c", "echo ran").build());
        String key = key("once");
        JobRef first = submit(plan, key);
        JobRef second = submit(plan, key);
        assertEquals(first, second);
        assertState(JobState.SUCCEEDED, awaitEnd(first));
        JobRef third = submit(plan, key);
        assertEquals(first, third, "a retry after the job ended still returns the same job");
        assertEquals(List.of("ran"), lines(first, LogOptions.all()), "the command must have run exactly once");
    }

    @Test
    void differentKeysYieldDifferentJobs() throws Exception {
        Plan plan = fixture.plan(workload("twice").command("sh", "-c", "echo ran").build());
        JobRef first = submit(plan, key("twice-a"));
        JobRef second = submit(plan, key("twice-b"));
        assertNotEquals(first, second);
        assertState(JobState.SUCCEEDED, awaitEnd(first));
        assertState(JobState.SUCCEEDED, awaitEnd(second));
        assertEquals(List.of("ran"), lines(second, LogOptions.all()));
    }

    @Test
    void statusesAnswersForEveryJobInOneCall() throws Exception {
        JobRef ok = submit(workload("many-ok").command("sh", "-c", "exit 0").build());
        JobRef bad = submit(workload("many-bad").command("sh", "-c", "exit 5").build());
        JobRef running = submit(workload("many-run").command("sh", "-c", TICKER).build());
        awaitEnd(ok);
        awaitEnd(bad);
        awaitOutput(running, out -> out.contains("tick"));
        Map<JobRef, JobStatus> statuses = backend.statuses(List.of(ok, bad, running));
        assertEquals(Set.of(ok, bad, running), statuses.keySet());
        assertState(JobState.SUCCEEDED, statuses.get(ok));
        assertState(JobState.FAILED, statuses.get(bad));
        assertEquals(OptionalInt.of(5), statuses.get(bad).exitCode());
        assertState(JobState.RUNNING, statuses.get(running));
        backend.cancel(running);
        assertState(JobState.CANCELLED, awaitEnd(running));
    }

    /**
     * Two hundred jobs, one status call: every job answered with its own state, at a cost of at most
     * {@link BackendFixture#statusCallsAllowed()} remote calls where the fixture can count them.
     */
    @Test
    void statusOfTwoHundredJobsIsOneCall() throws Exception {
        int count = 200;
        // One after another: a backend without a queue (the manual one) refuses a job its hosts have no room for,
        // and jobs submitted together would fill a small test fleet before the first ones end.
        List<JobRef> jobs = new ArrayList<>();
        Map<JobRef, Integer> codes = new LinkedHashMap<>();
        for (int i = 0; i < count; i++) {
            int code = i % 3 == 0 ? 0 : 3;
            Plan plan = fixture.bulkPlan(workload("bulk-" + i).command("sh", "-c", "exit " + code).build());
            JobRef job = submit(plan, key(plan.workload().name()));
            jobs.add(job);
            codes.put(job, code);
        }
        awaitAllEnded(jobs);
        OptionalLong before = fixture.remoteCalls(backend);
        Map<JobRef, JobStatus> statuses = backend.statuses(jobs);
        OptionalLong after = fixture.remoteCalls(backend);
        assertEquals(Set.copyOf(jobs), statuses.keySet(), "every job is answered");
        for (JobRef job : jobs) {
            JobStatus status = statuses.get(job);
            assertState(codes.get(job) == 0 ? JobState.SUCCEEDED : JobState.FAILED, status);
            assertEquals(OptionalInt.of(codes.get(job)), status.exitCode(), job.toString());
        }
        if (before.isPresent() && after.isPresent()) {
            long calls = after.getAsLong() - before.getAsLong();
            assertTrue(calls <= fixture.statusCallsAllowed(), "the status of " + count + " jobs cost " + calls
                    + " remote calls; at most " + fixture.statusCallsAllowed() + " are allowed here");
        }
    }

    // ---- SPI v2: the job-environment contract, several nodes, containers, dependencies

    @Test
    void theJobEnvironmentContractIsSet() throws Exception {
        // A path no host has yet: a container backend mounts it from the host, which must be able to create it.
        String checkpoint = context.scratchDirectory().resolve("checkpoint-" + UUID.randomUUID()).toString();
        Plan plan = fixture.plan(workload("contract").command(KitScripts.printContract())
                .checkpoint(new Checkpoint(checkpoint, Duration.ofMinutes(5))).build());
        JobRef job = backend.submit(plan, SubmitOptions.withKey(key("contract")).attempt(3).resuming(true));
        submitted.add(job);
        assertState(JobState.SUCCEEDED, awaitEnd(job));
        Map<String, String> seen = new LinkedHashMap<>();
        for (String line : lines(job, new LogOptions(false, OptionalInt.empty(), true, false))) {
            int eq = line.indexOf('=');
            seen.put(eq < 0 ? line : line.substring(0, eq), eq < 0 ? null : line.substring(eq + 1));
        }
        assertEquals(JobEnvironment.NAMES, List.copyOf(seen.keySet()), "one line per name: " + seen);
        Map<String, String> expected = new LinkedHashMap<>();
        expected.put(JobEnvironment.JOB_ID, job.id());
        expected.put(JobEnvironment.ATTEMPT, "3");
        expected.put(JobEnvironment.RESUME, "1");
        expected.put(JobEnvironment.CHECKPOINT_DIR, checkpoint);
        expected.put(JobEnvironment.NODE_RANK_GANTRY, "0");
        expected.put(JobEnvironment.NUM_NODES, "1");
        expected.put(JobEnvironment.GPUS_PER_NODE, Integer.toString(
                plan.workload().resources().gpus().orElse(plan.gpusPerNode())));
        expected.put(JobEnvironment.MASTER_ADDR, seen.get(JobEnvironment.MASTER_ADDR));
        expected.put(JobEnvironment.MASTER_PORT, seen.get(JobEnvironment.MASTER_PORT));
        expected.put(JobEnvironment.WORLD_SIZE, "1");
        expected.put(JobEnvironment.NODE_RANK, "0");
        expected.put(JobEnvironment.RANK, "0");
        expected.put(JobEnvironment.LOCAL_RANK, "0");
        assertEquals(expected, seen);
        assertNotNull(seen.get(JobEnvironment.MASTER_ADDR), "MASTER_ADDR is set");
        assertFalse(seen.get(JobEnvironment.MASTER_ADDR).isBlank(), "MASTER_ADDR is an address");
        int port = Integer.parseInt(seen.get(JobEnvironment.MASTER_PORT));
        assertTrue(port >= 1 && port <= 65535, "MASTER_PORT is a port: " + port);
    }

    /**
     * Two nodes: each rank sees its rank, the world size and the master's address, and rank 1 reaches rank 0 over
     * TCP at {@code MASTER_ADDR:MASTER_PORT}.
     */
    @Test
    void twoNodeRanksMeetAtTheMaster() throws Exception {
        assumeTrue(backend.capabilities().multiNode(), "the backend declares no multi-node capability");
        Plan plan = fixture.twoNodePlan(workload("two-node").command(KitScripts.rendezvous()).build());
        assertEquals(2, plan.nodes(), "the fixture's two-node plan");
        assertEquals(List.of(), backend.validate(plan), "the fixture's two-node plan must be runnable");
        JobRef job = submit(plan, key("two-node"));
        JobStatus status = awaitEnd(job);
        List<LogLine> out = collect(job, LogOptions.all());
        assertState(JobState.SUCCEEDED, status);
        List<LogLine> contract = out.stream().filter(l -> l.text().startsWith(KitScripts.CONTRACT_LINE)).toList();
        assertEquals(2, contract.size(), "one contract line per rank: " + out);
        String master = null;
        for (LogLine line : contract) {
            String rank = Integer.toString(line.node());
            String prefix = "contract rank=" + rank + " node_rank=" + rank + " gantry_node_rank=" + rank
                    + " world=2 nodes=2 local_rank=0 master=";
            assertTrue(line.text().startsWith(prefix), "rank " + rank + " saw " + line.text());
            String itsMaster = line.text().substring(prefix.length());
            assertTrue(itsMaster.matches(".+:\\d+"), "MASTER_ADDR:MASTER_PORT " + itsMaster);
            if (master != null) {
                assertEquals(master, itsMaster, "both ranks meet at the same address");
            }
            master = itsMaster;
        }
        assertTrue(out.stream().anyMatch(l -> l.node() == 0 && l.text().equals("received: hello from rank 1 of 2")),
                "rank 0 received rank 1's message over TCP: " + out);
    }

    @Test
    void containerRunUsesTheImage() throws Exception {
        assumeTrue(backend.capabilities().containers(), "the backend declares no container capability");
        String probe = fixture.fileOnlyInContainerImage().map(file -> "test -e '" + file + "' && echo in-image; ")
                .orElse("echo in-image; ");
        JobRef job = submit(workload("container-run").container(fixture.containerImage())
                .command("sh", "-c", probe + "printf '<%s>\\n' \"$@\"; echo \"$TCK_IN_CONTAINER\"; exit 4", "sh",
                        "a b", "$(id)").env("TCK_IN_CONTAINER", "it's \"here\"").build());
        JobStatus status = awaitEnd(job);
        assertState(JobState.FAILED, status);
        assertEquals(OptionalInt.of(4), status.exitCode(), "the container's exit code is the job's");
        assertEquals(List.of("in-image", "<a b>", "<$(id)>", "it's \"here\""),
                lines(job, new LogOptions(false, OptionalInt.empty(), true, false)));
    }

    /** B depends on A's success: B starts only after A succeeded, and never when A failed. */
    @Test
    void aDependentJobStartsOnlyAfterItsDependencySucceeded() throws Exception {
        assumeTrue(backend.capabilities().nativeDependencies(), "the backend declares no native dependencies");
        String done = fixture.sharedDirectory(context) + "/tck-dependency-" + UUID.randomUUID();
        JobRef a = submit(workload("dep-a").command("sh", "-c", "sleep 1; echo done > \"$1\"", "sh", done).build());
        JobRef b = submitDependent(workload("dep-b").command("cat", done).build(), JobDependency.afterSuccess(a));
        assertState(JobState.SUCCEEDED, awaitEnd(a));
        assertState(JobState.SUCCEEDED, awaitEnd(b));
        assertEquals(List.of("done"), lines(b, LogOptions.all()), "B ran after A had written its file");

        JobRef failing = submit(workload("dep-fail").command("sh", "-c", "sleep 1; exit 3").build());
        String ran = fixture.sharedDirectory(context) + "/tck-never-" + UUID.randomUUID();
        JobRef never = submitDependent(workload("dep-never").command("sh", "-c", ": > \"$1\"", "sh", ran).build(),
                JobDependency.afterSuccess(failing));
        JobRef cleanup = submitDependent(workload("dep-any").command("echo", "cleanup").build(),
                JobDependency.afterAny(failing));
        assertState(JobState.FAILED, awaitEnd(failing));
        JobStatus neverStatus = awaitEnd(never);
        assertState(JobState.CANCELLED, neverStatus);
        assertTrue(neverStatus.message().contains(failing.id()), "the message names the dependency that failed: "
                + neverStatus);
        assertNeverCreated(ran, "B must never have run");
        assertState(JobState.SUCCEEDED, awaitEnd(cleanup));
        assertEquals(List.of("cleanup"), lines(cleanup, LogOptions.all()), "an after-any dependent runs after a failure");
    }

    /** A job held back (here by a dependency on a running job) is cancelled before it ever starts. */
    @Test
    void cancelOfAPendingJob() throws Exception {
        assumeTrue(backend.capabilities().nativeDependencies(),
                "without native dependencies the kit cannot hold a job pending on this backend");
        JobRef blocker = submit(workload("pending-blocker").command("sh", "-c", TICKER).build());
        // Running first: a scheduler may take a moment to start it, and the case is about the dependent alone.
        awaitOutput(blocker, out -> out.contains("tick"));
        String ran = fixture.sharedDirectory(context) + "/tck-pending-" + UUID.randomUUID();
        JobRef pending = submitDependent(workload("pending").command("sh", "-c", ": > \"$1\"", "sh", ran).build(),
                JobDependency.afterSuccess(blocker));
        assertState(JobState.PENDING, backend.status(pending));
        backend.cancel(pending);
        assertState(JobState.CANCELLED, awaitEnd(pending));
        assertEquals(JobState.RUNNING, backend.status(blocker).state(), "cancelling the dependent leaves A running");
        backend.cancel(blocker);
        assertState(JobState.CANCELLED, awaitEnd(blocker));
        Thread.sleep(500);
        assertState(JobState.CANCELLED, backend.status(pending));
        assertNeverCreated(ran, "the cancelled pending job must never have run");
    }

    @Test
    void unknownJobIsNotFound() {
        JobRef unknown = new JobRef(backend.name(), "tck-never-submitted-" + UUID.randomUUID());
        GantryException e = assertThrows(GantryException.class, () -> backend.status(unknown));
        assertEquals(ErrorCode.JOB_NOT_FOUND, e.code());
        assertTrue(e.getMessage().contains(unknown.id()), "the message must name the job: " + e.getMessage());
    }

    // ---- support

    /** A workload builder with the kit's defaults: a small training workload with a name unique to the case. */
    protected static Workload.Builder workload(String name) {
        return Workload.builder("tck-" + name).phase(Phase.TRAINING).model(ModelClass.SMALL);
    }

    /** An idempotency key unique to this run. */
    protected static String key(String name) {
        return "tck-" + name + "-" + UUID.randomUUID();
    }

    /** Submits the fixture's plan for the workload under a fresh key, remembering the job for cleanup. */
    protected final JobRef submit(Workload workload) {
        return submit(fixture.plan(workload), key(workload.name()));
    }

    protected final JobRef submit(Plan plan, String key) {
        JobRef job = backend.submit(plan, SubmitOptions.withKey(key));
        assertNotNull(job, "submit returned no job");
        assertEquals(backend.name(), job.backend(), "a job ref names the backend that made it");
        submitted.add(job);
        return job;
    }

    /** Submits the fixture's plan for the workload, depending on the given jobs. */
    protected final JobRef submitDependent(Workload workload, JobDependency... dependencies) {
        JobRef job = backend.submit(fixture.plan(workload), SubmitOptions.withKey(key(workload.name()))
                .dependingOn(dependencies));
        assertEquals(backend.name(), job.backend(), "a job ref names the backend that made it");
        submitted.add(job);
        return job;
    }

    /** Asks a job of the environment (the file may be on its hosts only) that {@code file} does not exist. */
    private void assertNeverCreated(String file, String why) throws InterruptedException {
        JobRef check = submit(workload("check-absent").command("sh", "-c", "test ! -e \"$1\"", "sh", file).build());
        assertState(JobState.SUCCEEDED, awaitEnd(check), () -> why + ": " + file + " exists");
    }

    /** Polls the jobs together, one {@code statuses} call a round, until every one has ended. */
    private void awaitAllEnded(List<JobRef> jobs) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos() * 4;
        while (true) {
            List<JobRef> running = backend.statuses(jobs).entrySet().stream()
                    .filter(e -> !e.getValue().state().isTerminal()).map(Map.Entry::getKey).toList();
            if (running.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                fail(running.size() + " of " + jobs.size() + " jobs did not end within "
                        + fixture.timeout().multipliedBy(4) + ", e.g. " + running.get(0) + ": "
                        + backend.status(running.get(0)));
            }
            Thread.sleep(POLL.toMillis() * 4);
        }
    }

    /** Polls until the job reaches a terminal state, failing at the fixture's deadline. */
    protected final JobStatus awaitEnd(JobRef job) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        JobStatus status = backend.status(job);
        while (!status.state().isTerminal()) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not end within " + fixture.timeout() + "; last status " + status);
            }
            Thread.sleep(POLL.toMillis());
            status = backend.status(job);
        }
        return status;
    }

    /** Polls the job's standard output until it satisfies the condition, failing at the deadline. */
    protected final void awaitOutput(JobRef job, Predicate<List<String>> condition) throws InterruptedException {
        long deadline = System.nanoTime() + fixture.timeout().toNanos();
        List<String> out = lines(job, new LogOptions(false, OptionalInt.empty(), true, false));
        while (!condition.test(out)) {
            if (System.nanoTime() > deadline) {
                fail(job + " did not print the expected output within " + fixture.timeout() + "; stdout so far "
                        + out + ", status " + backend.status(job));
            }
            Thread.sleep(POLL.toMillis());
            out = lines(job, new LogOptions(false, OptionalInt.empty(), true, false));
        }
    }

    protected final List<LogLine> collect(JobRef job, LogOptions options) throws InterruptedException {
        List<LogLine> result = new ArrayList<>();
        backend.logs(job, options, result::add);
        return result;
    }

    protected final List<String> lines(JobRef job, LogOptions options) throws InterruptedException {
        return collect(job, options).stream().map(LogLine::text).collect(Collectors.toList());
    }

    private String text(JobRef job, LogLine.Stream stream) throws InterruptedException {
        return String.join("\n", textOf(collect(job, LogOptions.all()), stream));
    }

    private static List<String> textOf(List<LogLine> lines, LogLine.Stream stream) {
        return lines.stream().filter(l -> l.stream() == stream).map(LogLine::text).collect(Collectors.toList());
    }

    private static void assertState(JobState expected, JobStatus actual) {
        assertNotNull(actual, "no status");
        assertEquals(expected, actual.state(), () -> "status was " + actual);
    }

    private static void assertState(JobState expected, JobStatus actual, Supplier<String> why) {
        assertNotNull(actual, "no status");
        assertEquals(expected, actual.state(), () -> why.get() + "; status was " + actual);
    }

    /** The ticker prints every 100 ms: once the job is stopped its output must stop growing. */
    private void assertSideEffectStopped(JobRef job) throws InterruptedException {
        int before = lines(job, LogOptions.all()).size();
        Thread.sleep(500);
        int after = lines(job, LogOptions.all()).size();
        assertEquals(before, after, "the job kept printing after it was stopped: its processes are still running");
    }

    private void assertSecretNotStored(String value) throws IOException {
        byte[] needle = value.getBytes(StandardCharsets.UTF_8);
        try (Stream<Path> files = Files.walk(context.stateDirectory())) {
            for (Path file : (Iterable<Path>) files.filter(Files::isRegularFile)::iterator) {
                byte[] content = Files.readAllBytes(file);
                assertFalse(contains(content, needle), "the secret's value was written to " + file);
            }
        }
    }

    private static boolean contains(byte[] haystack, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= haystack.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (haystack[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
