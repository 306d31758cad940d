package dev.gantry.cli.swap;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobEnvironment;
import dev.gantry.backend.aks.testcluster.KubeTestCluster;
import dev.gantry.backend.cyclecloud.slurm.TestCluster;
import dev.gantry.cli.CliRun;
import dev.gantry.cli.swap.TestBackends.PlannedSize;
import dev.gantry.cli.swap.TestBackends.Section;
import dev.gantry.hosts.events.FakeMetadataService;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.ServiceLoader;
import java.util.Set;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Swap by configuration, proven: the same spec files (test resources under {@code swap/}), unchanged, run through
 * the real CLI on every backend of the test environment, the configuration file holding every backend's section and
 * only its {@code backend:} line changing between runs. Manual (local and SSH) and cyclecloud (Slurm and Grid
 * Engine) are two environments of one backend name each, so they take two files, each with every backend's
 * section; within one file's family only {@code backend:} changes, which the test checks.
 *
 * <ul>
 *   <li>{@code observe.yaml} prints what it observed; its arguments, declared environment, the job-environment
 *       contract's values, exit code and output per stream (merged where the backend's capabilities say so) must be
 *       the same on every backend as on the first (manual, local). The variables a backend adds of its own are
 *       listed, not compared;</li>
 *   <li>{@code two-nodes.yaml}: two ranks meet at the master, on every backend that runs multi-node jobs;</li>
 *   <li>{@code flow.yaml}: a workflow with a dependency and a matrix, on every backend;</li>
 *   <li>{@code spot.yaml}, last: a Spot step evicted once on every backend by the mechanism of the backend's own
 *       tests ({@link Evictions}), which must end SUCCEEDED with the eviction counted and the run after it told to
 *       resume. Spot on Batch needs an Entra ID account, so that backend's fake and CLI run as processes of their
 *       own ({@link EntraBatchFake}).</li>
 * </ul>
 * What differs today is listed in {@link #KNOWN_GAPS}; anything else that differs fails the test.
 * The table it prints, backend by observation, is the one docs/backends/README.md shows.
 */
class SwapByConfigurationTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String REFERENCE = "manual (local)";
    private static final Set<String> DECLARED = Set.of("GREETING", "QUOTE");
    /** The Spot VM's name in the fake Scheduled Events of the manual backend's hosts. */
    private static final String SPOT_VM = "swap-spot-vm";
    /** Where the SSH test hosts reach this machine (scripts/test-hosts.sh's bridge): their metadata service. */
    private static final String HOSTS_BRIDGE = "10.200.0.1";
    private static final String SPOT_ROW = "Spot: evicted once, resumed with GANTRY_RESUME=1, SUCCEEDED";
    /**
     * What differs today, by "row / column", and why; docs/backends/README.md lists them. The test fails when one
     * is no longer different, so that the list and the docs follow the fix.
     */
    private static final Map<String, String> KNOWN_GAPS = Map.of();
    /**
     * The checkpoint directories of observe.yaml and spot.yaml, the same on every backend. Batch's launcher makes
     * them and marks each task's first run there, so that a rerun after a preemption resumes
     * (docs/backends/batch.md); the test removes them after.
     */
    private static final List<Path> CHECKPOINTS = List.of(Path.of("/mnt/checkpoints/observe"),
            Path.of("/mnt/checkpoints/swap-spot"));

    @TempDir
    Path home;

    @TempDir
    Path work;

    /**
     * About 90 s here; a command that does not end fails at {@link CliLauncher#LIMIT} with what it printed, and
     * this bound, in a thread of its own (a join does not answer an interrupt), ends the test with every thread's
     * stack whatever else waits.
     */
    @Test
    @Timeout(value = 15, unit = TimeUnit.MINUTES, threadMode = Timeout.ThreadMode.SEPARATE_THREAD)
    void theSameSpecsRunOnEveryBackendWithOnlyTheBackendLineChanged() throws Exception {
        Path observe = resource("observe.yaml");
        PlannedSize size = plan(observe);
        TestCluster cluster = TestCluster.get();
        Path clusterShare = TestBackends.sharedDirectory(cluster, "swap");
        Path hostsShare = TestBackends.writable(Files.createTempDirectory("gantry-swap-"));
        try {
            proveOnEveryBackend(observe, size, cluster, clusterShare, hostsShare);
        } finally {
            removeQuietly(clusterShare);
            removeQuietly(hostsShare);
        }
    }

    private void proveOnEveryBackend(Path observe, PlannedSize size, TestCluster cluster, Path clusterShare,
            Path hostsShare) throws Exception {
        ObservationTable table;
        try (Section local = TestBackends.manualLocal();
             Section ssh = TestBackends.manualSsh(hostsShare);
             Section slurm = TestBackends.slurm(cluster, clusterShare.resolve("slurm"));
             Section gridEngine = TestBackends.gridEngine(cluster, clusterShare.resolve("ge"),
                     List.of(size.vmSize()));
             Section aks = TestBackends.aks(work, size, false);
             Section batch = TestBackends.batch(work, size)) {
            Map<String, Path> configs = new LinkedHashMap<>();
            writeFamily(configs, "on-demand", size, List.of(local, slurm, aks, batch));
            writeFamily(configs, "on-demand", size, List.of(ssh, gridEngine, aks, batch));
            Map<String, Section> environments = new LinkedHashMap<>();
            List.of(local, ssh, slurm, gridEngine, aks, batch).forEach(s -> environments.put(s.environment(), s));

            table = new ObservationTable(List.copyOf(environments.keySet()));
            Map<String, Observation> observed = new LinkedHashMap<>();
            Map<String, String> twoNodes = new LinkedHashMap<>();
            Map<String, String> workflows = new LinkedHashMap<>();
            for (Section section : environments.values()) {
                long start = System.nanoTime();
                Path config = configs.get(section.environment());
                observed.put(section.environment(), observeOn(section, config, observe));
                twoNodes.put(section.environment(), twoNodes(section, config));
                workflows.put(section.environment(), workflow(section, config));
                System.out.printf(Locale.ROOT, "swap by configuration: %s took %.1f s%n", section.environment(),
                        (System.nanoTime() - start) / 1e9);
            }
            compare(table, observed, environments);
            twoNodes.forEach((column, cell) -> table.put("two nodes meet at the master", column, cell));
            workflows.forEach((column, cell) -> table.put("workflow: dependency and matrix", column, cell));
        }
        // Last, once the on-demand test cluster's nodes are gone: its Spot nodes take the same node namespaces.
        try {
            spot(table, plan(resource("spot.yaml")), cluster, clusterShare, hostsShare);
        } finally {
            CHECKPOINTS.forEach(SwapByConfigurationTest::removeQuietly);
            CHECKPOINTS.get(0).getParent().toFile().delete();
        }
        System.out.println("swap by configuration: " + observe.getFileName() + ", two-nodes.yaml, flow.yaml and "
                + "spot.yaml on every backend; the reference column is " + REFERENCE + "\n" + table.render()
                + "known gaps: " + KNOWN_GAPS);
        assertEquals(KNOWN_GAPS.keySet(), table.differences().keySet(), "every observation the same on every "
                + "backend but the known gaps " + KNOWN_GAPS.keySet() + " (a gap closed: remove it from KNOWN_GAPS "
                + "and docs/backends/README.md):\n" + table.render());
    }

    /**
     * spot.yaml on every backend, its step evicted once by the mechanism of each backend's own tests: it must end
     * SUCCEEDED with the eviction counted, the run that resumed seeing GANTRY_RESUME=1.
     */
    private void spot(ObservationTable table, PlannedSize size, TestCluster cluster, Path clusterShare,
            Path hostsShare) throws Exception {
        try (FakeMetadataService localEvents = new FakeMetadataService(SPOT_VM);
             FakeMetadataService hostEvents = new FakeMetadataService(SPOT_VM, InetAddress.getByName(HOSTS_BRIDGE));
             Section local = TestBackends.manualLocalSpot(localEvents.eventsUrl());
             Section ssh = TestBackends.manualSshSpot(hostsShare.resolve("spot"), hostEvents.eventsUrl());
             Section slurm = TestBackends.slurm(cluster, clusterShare.resolve("slurm-spot"));
             Section gridEngine = TestBackends.gridEngine(cluster, clusterShare.resolve("ge-spot"),
                     List.of(size.vmSize()));
             Section aks = TestBackends.aks(Files.createDirectories(work.resolve("aks-spot")), size, true);
             Section batch = TestBackends.batchSpot(Files.createDirectories(work.resolve("batch-spot")), size)) {
            Map<String, Path> configs = new LinkedHashMap<>();
            writeFamily(configs, "spot", size, List.of(local, slurm, aks, batch));
            writeFamily(configs, "spot", size, List.of(ssh, gridEngine, aks, batch));
            Map<Section, Evictions.Eviction> evictions = new LinkedHashMap<>();
            evictions.put(local, Evictions.preemptEvent(localEvents, SPOT_VM));
            evictions.put(ssh, Evictions.preemptEvent(hostEvents, SPOT_VM));
            evictions.put(slurm, Evictions.slurmNodeFails(clusterShare.resolve("slurm-spot").resolve("jobs")));
            evictions.put(gridEngine, Evictions.gridEngineRunLost(clusterShare.resolve("ge-spot").resolve("jobs")));
            evictions.put(aks, Evictions.aksNodeDeleted((KubeTestCluster) aks.started()));
            EntraBatchFake batchFake = (EntraBatchFake) batch.started();
            evictions.put(batch, batchFake::preempt);
            for (Map.Entry<Section, Evictions.Eviction> entry : evictions.entrySet()) {
                long start = System.nanoTime();
                String environment = entry.getKey().environment();
                CliLauncher cli = entry.getKey() == batch ? batchFake.cli(work) : inProcess();
                Path runHome = home.resolve("spot-" + slug(environment));
                table.put(SPOT_ROW, environment, SpotRun.prove(environment, cli, runHome, configs.get(environment),
                        resource("spot.yaml"), entry.getValue()));
                System.out.printf(Locale.ROOT, "swap by configuration: Spot on %s took %.1f s%n", environment,
                        (System.nanoTime() - start) / 1e9);
            }
        }
    }

    /**
     * Writes one configuration file per environment of {@code family}, each holding every section of the family and
     * differing from the others in its {@code backend:} line alone (checked).
     */
    private void writeFamily(Map<String, Path> configs, String part, PlannedSize size, List<Section> family)
            throws IOException {
        List<List<String>> files = new ArrayList<>();
        for (Section section : family) {
            String text = TestBackends.config(section.backend(), size.region(), family);
            files.add(text.lines().toList());
            if (!configs.containsKey(section.environment())) {
                Path file = work.resolve("configs").resolve(part).resolve(slug(section.environment()) + ".yaml");
                Files.createDirectories(file.getParent());
                configs.put(section.environment(), Files.writeString(file, text));
            }
        }
        for (List<String> file : files) {
            List<Integer> differing = new ArrayList<>();
            for (int i = 0; i < Math.max(file.size(), files.get(0).size()); i++) {
                if (i >= file.size() || i >= files.get(0).size() || !file.get(i).equals(files.get(0).get(i))) {
                    differing.add(i);
                }
            }
            assertTrue(differing.isEmpty() || differing.equals(List.of(0)) && file.get(0).startsWith("backend: "),
                    "the files differ in their backend: line only, not in lines " + differing);
        }
    }

    /** Runs observe.yaml on one environment; its job must end FAILED with the workload's exit code. */
    private Observation observeOn(Section section, Path config, Path spec) throws IOException {
        Path sectionHome = home.resolve(slug(section.environment()));
        CliRun run = inProcess().run(sectionHome, "--config", config.toString(), "run", spec.toString());
        assertEquals(1, run.exitCode, section.environment() + ": the job fails with the workload's exit code: " + run);
        String job = run.err.lines().filter(l -> l.startsWith("gantry: submitted ")).findFirst()
                .orElseThrow(() -> new AssertionError(section.environment() + ": no job submitted: " + run))
                .split(" ")[2];
        CliRun status = inProcess().run(sectionHome, "--config", config.toString(), "status", job, "--output", "json");
        Observation observation = Observation.of(run.out, run.err);
        JsonNode exitCode = JSON.readTree(status.out).path("exitCode");
        observation.values().put("exit code", exitCode.isNumber() ? exitCode.asText() : "none: " + status.out);
        return observation;
    }

    /** Each observation against the reference column; the output per stream as the backend's capabilities say. */
    private static void compare(ObservationTable table, Map<String, Observation> observed,
            Map<String, Section> environments) {
        Observation reference = observed.get(REFERENCE);
        Set<String> contract = Set.copyOf(JobEnvironment.NAMES);
        Set<String> inherited = new HashSet<>(System.getenv().keySet());
        for (Map.Entry<String, Observation> entry : observed.entrySet()) {
            String column = entry.getKey();
            Observation seen = entry.getValue();
            reference.values().forEach((name, value) -> table.put(name, column,
                    column.equals(REFERENCE) ? "same (" + value + ")" : Objects.equals(value, seen.values().get(name))
                            ? "same" : "different: " + seen.values().get(name)));
            boolean merges = capabilities(environments.get(column).backend()).mergedLogs();
            String output;
            if (merges) {
                output = seen.merged().equals(reference.merged()) && seen.stderr().isEmpty()
                        ? "same (merged: the capabilities say so)" : "different: " + seen.stdout() + seen.stderr();
            } else {
                output = seen.stdout().equals(reference.stdout()) && seen.stderr().equals(reference.stderr())
                        ? "same (stdout and stderr apart)" : "different: " + seen.stdout() + " / " + seen.stderr();
            }
            table.put("output per stream", column, output);
            table.put("adds variables of its own (not compared)", column,
                    seen.ownVariables(contract, DECLARED, inherited));
        }
    }

    /** two-nodes.yaml: on a backend that runs multi-node jobs, the ranks meet; else the refusal says why. */
    private String twoNodes(Section section, Path config) throws Exception {
        CliRun run = inProcess().run(home.resolve("two-" + UUID.randomUUID()), "--config", config.toString(), "run",
                resource("two-nodes.yaml").toString());
        if (section.environment().equals(REFERENCE)) {
            assertEquals(1, run.exitCode, "the local transport refuses a two-node plan: " + run);
            assertTrue(run.err.contains("node"), "the refusal says why: " + run);
            return "n.a.: the local transport runs one node (this machine)";
        }
        assertEquals(0, run.exitCode, section.environment() + ": " + run);
        String output = run.out + run.err;
        assertTrue(output.contains("rank 0 of 2, 2 nodes") && output.contains("rank 1 of 2, 2 nodes")
                && output.contains("rank 0 received: hello from rank 1"), section.environment() + ": " + run);
        return "same";
    }

    /** flow.yaml: prepare, then shard a and shard b after it; the run SUCCEEDED, each job once. */
    private String workflow(Section section, Path config) throws Exception {
        CliRun run = inProcess().run(home.resolve("flow-" + UUID.randomUUID()), "--config", config.toString(), "run",
                resource("flow.yaml").toString(), "--output", "json");
        assertEquals(0, run.exitCode, section.environment() + ": " + run);
        JsonNode result = JSON.readTree(run.out);
        List<String> steps = new ArrayList<>();
        result.path("steps").forEach(s -> steps.add(s.path("name").asText() + " " + s.path("state").asText() + " "
                + s.path("attempts").asInt()));
        assertEquals("SUCCEEDED", result.path("state").asText(), section.environment() + ": " + run);
        assertEquals(List.of("prepare SUCCEEDED 1", "shard-a SUCCEEDED 1", "shard-b SUCCEEDED 1"), steps,
                section.environment() + ": " + run);
        return "same";
    }

    /** The CLI in this process, each command bounded by {@link CliLauncher#LIMIT}. */
    private CliLauncher inProcess() {
        return CliLauncher.inProcess(work);
    }

    /** The planned size, region and image of {@code spec}, from {@code gantry plan SPEC --output json}. */
    private PlannedSize plan(Path spec) throws IOException {
        CliRun run = inProcess().run(home.resolve("plan"), "plan", spec.toString(), "--output", "json");
        assertEquals(0, run.exitCode, run.toString());
        JsonNode answer = JSON.readTree(run.out);
        JsonNode plan = answer.has("jobs") ? answer.path("jobs").path(0).path("plan") : answer;
        return new PlannedSize(plan.path("vmSize").asText(), plan.path("vcpus").asInt(),
                plan.path("memoryGib").asDouble(), plan.path("region").asText(),
                plan.path("image").path("urn").asText());
    }

    private static Capabilities capabilities(String backend) {
        return ServiceLoader.load(BackendProvider.class).stream().map(ServiceLoader.Provider::get)
                .filter(p -> p.name().equals(backend)).findFirst().orElseThrow().capabilities();
    }

    /**
     * Removes what the runs left in a shared directory; what cannot be removed (files of the test users, when the
     * test does not run as root) stays, as the other cluster tests' directories do.
     */
    private static void removeQuietly(Path directory) {
        try (Stream<Path> paths = Files.walk(directory)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException | UncheckedIOException e) {
            // Left for a later clean-up of the shared directory; the test's verdict does not depend on it.
        }
    }

    private static String slug(String environment) {
        return environment.replaceAll("[^a-z]+", "-");
    }

    private static Path resource(String name) throws URISyntaxException {
        return Path.of(Objects.requireNonNull(SwapByConfigurationTest.class.getResource("/swap/" + name), name)
                .toURI());
    }
}
