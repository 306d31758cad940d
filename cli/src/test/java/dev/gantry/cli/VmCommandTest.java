package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.ssh.TestHosts;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code gantry vm up} end to end against real components: the Azure Resource Manager fake creates a VM whose NIC
 * has the address of the real SSH test host gantry-h1 and whose Run Command prints a host key; {@code vm up} records
 * that key, waits until port 22 answers and the manual backend's doctor passes over SSH with the key pinned; then a
 * job submitted to the manual backend configured with {@code provisioned: [that VM]} runs there.
 */
class VmCommandTest {
    static final String OTHER_KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIdUs8Iojpkx/XwiiFxz+xB1gS7glq9G182U8702WdDw "
            + "root@elsewhere";

    @TempDir
    Path home;
    @TempDir
    Path work;

    final TestHosts.Host h1 = TestHosts.host(1);
    final Path jobs = Path.of("/tmp", "gantry-it-" + UUID.randomUUID());
    ArmFake arm;

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        Files.writeString(work.resolve("cpu.yaml"), spec("e2e", "resources: {vcpus: 1, memoryGib: 1}"));
        Files.writeString(work.resolve("gpu.yaml"), spec("gpu", "resources: {gpus: 1}"));
        offer("cpu.yaml");
        offer("gpu.yaml");
    }

    /**
     * Has the subscription's Resource SKUs offer the size the spec plans (in zones 1 and 2 of its region), since
     * {@code vm up} plans within the subscription: a size the fake does not list is not offered to it.
     */
    void offer(String spec) throws IOException {
        offer(spec, List.of("1", "2"));
    }

    /** Offers the size SPEC plans to the subscription in these zones of the plan's region (none: regional only). */
    void offer(String spec, List<String> zones) throws IOException {
        CliRun plan = gantry("plan", spec, "--no-quota", "--output", "json");
        assertEquals(0, plan.exitCode, plan.toString());
        JsonNode planned = Json.MAPPER.readTree(plan.out);
        arm.skus(ArmFake.sku(planned.path("vmSize").asText(), "standardTestFamily", planned.path("region").asText(),
                Map.of("vCPUs", planned.path("vcpus").asText()), null, zones));
    }

    @AfterEach
    void stop() throws IOException {
        arm.close();
        ProcessHandle.allProcesses()
                .filter(p -> p.info().arguments().map(a -> java.util.Arrays.stream(a)
                        .anyMatch(arg -> arg.startsWith(jobs + "/"))).orElse(false))
                .forEach(ProcessHandle::destroyForcibly);
        if (Files.exists(jobs)) {
            try (Stream<Path> files = Files.walk(jobs)) {
                for (Path p : (Iterable<Path>) files.sorted(Comparator.reverseOrder())::iterator) {
                    Files.deleteIfExists(p);
                }
            }
        }
    }

    static String spec(String name, String resources) {
        return String.join("\n",
                "apiVersion: gantry.dev/v1",
                "kind: Workload",
                "metadata:",
                "  name: " + name,
                "  labels: {team: nlp}",
                "spec:",
                "  phase: training",
                "  model: small",
                "  " + resources,
                "  command: [sh, -c, 'echo ran on $(hostname) as $(id -un)']",
                "");
    }

    /** The manual backend over SSH to the VMs Gantry provisioned; the test key logs in, jobs in a private dir. */
    void configure(String provisioned) throws IOException {
        Files.writeString(work.resolve("gantry.yaml"), String.join("\n",
                "backend: manual",
                "backends:",
                "  manual:",
                "    transport: ssh",
                "    cancelGrace: 2s",
                "    provisioned: " + provisioned,
                "    defaults:",
                "      identityFile: " + h1.identity(),
                "      workDir: " + jobs,
                "      connectTimeout: 3s",
                ""));
    }

    /** The VM named NAME comes up at gantry-h1's address, and Run Command prints these host keys. */
    void vmAtH1(String name, String... hostKeys) throws IOException {
        arm.privateIp(name, h1.address());
        arm.hostKeys(name, hostKeys.length > 0 ? hostKeys
                : new String[] {Files.readString(TestHosts.stateDir().resolve("h1").resolve("ssh_host_ed25519_key.pub"))});
    }

    CliRun gantry(String... args) {
        return CliRun.run(home, work, arm.connector(), args);
    }

    CliRun up(String spec, String prefix, String... more) {
        List<String> args = new java.util.ArrayList<>(List.of("vm", "up", spec, "--resource-group", "gantry-rg",
                "--subscription", ArmFake.SUBSCRIPTION, "--admin-user", h1.user(), "--ssh-key", h1.identity() + ".pub",
                "--name-prefix", prefix, "--count", "1"));
        args.addAll(List.of(more));
        return gantry(args.toArray(String[]::new));
    }

    @Test
    void upRecordsTheHostKeyWaitsForSshAndDoctorAndAJobThenRunsOnTheProvisionedVm() throws Exception {
        configure("[e2e-1]");
        vmAtH1("e2e-1");

        CliRun up = up("cpu.yaml", "e2e", "--wait-timeout", "2m");

        assertEquals(0, up.exitCode, up.toString());
        assertTrue(up.err.contains("waiting up to 2m until they answer SSH and pass doctor"), up.err);
        assertEquals(1, arm.requests("POST", "/virtualMachines/e2e-1/runCommand").size());
        assertEquals("[\"1\"]", arm.requests("PUT", "/virtualMachines/e2e-1").get(0).body().path("zones")
                .toString(), "the first zone the plan allows (the subscription's sizes offer zones 1 and 2)");
        CliRun list = gantry("vm", "list", "--output", "json");
        JsonNode vm = Json.MAPPER.readTree(list.out).get(0);
        assertEquals("e2e-1", vm.path("name").asText());
        assertEquals(h1.address(), vm.path("privateIp").asText());
        assertTrue(vm.path("hostKeyPinned").asBoolean(), list.out);
        assertEquals(h1.fingerprint(), vm.path("hostKeyFingerprints").get(0).asText());
        assertTrue(Files.exists(home.resolve("state").resolve("vms").resolve("vms.json")),
                "the inventory is in the state directory the manual backend reads");
        CliRun table = gantry("vm", "list");
        assertTrue(table.out.lines().anyMatch(l -> l.startsWith("e2e-1") && l.endsWith("pinned")), table.out);

        CliRun run = gantry("run", "cpu.yaml");

        assertEquals(0, run.exitCode, run.toString());
        assertTrue(run.out.contains("ran on " + h1.name() + " as " + h1.user()), run.out);
        assertTrue(run.out.lines().reduce((a, b) -> b).orElseThrow().matches("gantry: e2e-.*: SUCCEEDED \\(exit 0\\).*"),
                run.out);
    }

    @Test
    void aRunCommandKeyThatIsNotTheHostsMakesSshRefuseAndTheWaitStopsAtOnce() throws Exception {
        configure("[bad-1]");
        vmAtH1("bad-1", OTHER_KEY);

        CliRun up = up("cpu.yaml", "bad", "--wait-timeout", "2m");

        assertEquals(1, up.exitCode, up.toString());
        assertTrue(up.err.contains("gantry: error: 1 VM(s) not ready (waiting would not change it):"), up.err);
        assertTrue(up.err.contains("gantry: error:   bad-1: doctor: 1 check(s) MISSING:\ngantry: error:       "
                + "ssh.hostKey (found host key of " + h1.address() + ":22 does not match"), up.err);
        assertTrue(up.err.contains(h1.fingerprint()), "the offered key is shown: " + up.err);
        assertFalse(up.err.contains("\tat "), "no stack trace");
        CliRun run = gantry("run", "cpu.yaml");
        assertEquals(1, run.exitCode, run.toString());
        assertTrue(run.err.contains(h1.fingerprint()), run.err);
    }

    @Test
    void aGpuPlanOnACpuHostFailsTheDoctorWaitNamingTheMissingGpuCheck() throws Exception {
        configure("[gpu-1]");
        vmAtH1("gpu-1");

        CliRun up = up("gpu.yaml", "gpu", "--wait-timeout", "3s");

        assertEquals(1, up.exitCode, up.toString());
        assertTrue(up.err.contains("gantry: error: 1 VM(s) not ready after 3s:"), up.err);
        assertTrue(up.err.contains("gpu-1: doctor: "), up.err);
        assertTrue(up.err.lines().anyMatch(l -> l.startsWith("gantry: error:       gpu.count (found no GPUs visible, "
                + "needed 1 NVIDIA GPU")), up.err);
        assertTrue(up.err.contains("remove them with gantry vm down"), up.err);
        assertEquals(1, gantry("vm", "list", "--output", "json").out.split("\"gpu-1\"").length - 1,
                "the VM stays recorded so that vm down can remove it");
    }

    /**
     * A two-node InfiniBand training spec plans an RDMA (ND) size that the region offers in no zone; {@code vm up}
     * puts both (regional) VMs in one availability set with the plan's HPC image, and {@code vm down} removes the set
     * with them.
     */
    @Test
    void theVmsOfARegionalRdmaPlanShareOneAvailabilitySetAndGoWithIt() throws Exception {
        Files.writeString(work.resolve("ib.yaml"), spec("ib", "resources: {gpus: 8, nodes: 2, interconnect: "
                + "infiniband}"));
        offer("ib.yaml", List.of());
        configure("[ib-1, ib-2]");
        vmAtH1("ib-1");
        vmAtH1("ib-2");
        List<String> up = List.of("vm", "up", "ib.yaml", "--resource-group", "gantry-rg", "--subscription",
                ArmFake.SUBSCRIPTION, "--admin-user", h1.user(), "--ssh-key", h1.identity() + ".pub", "--name-prefix",
                "ib", "--skip-doctor", "--wait-timeout", "30s", "--output", "json");

        CliRun made = gantry(up.toArray(String[]::new));

        assertEquals(0, made.exitCode, made.toString());
        String set = ArmFake.resourcePath("gantry-rg", "Microsoft.Compute/availabilitySets", "ib-fabric");
        assertTrue(made.err.contains(" in availability set ib-fabric (so that they share one InfiniBand fabric)"),
                made.err);
        assertEquals(List.of("ib-1", "ib-2"), arm.availabilitySetMembers(set));
        JsonNode vm = arm.requests("PUT", "/virtualMachines/ib-1").get(0).body();
        assertTrue(vm.path("properties").path("hardwareProfile").path("vmSize").asText().startsWith("Standard_ND"),
                vm.toString());
        assertEquals("microsoft-dsvm", vm.path("properties").path("storageProfile").path("imageReference")
                .path("publisher").asText(), "the plan's HPC image");
        JsonNode listed = Json.MAPPER.readTree(gantry("vm", "list", "--output", "json").out);
        assertTrue(set.equalsIgnoreCase(listed.get(0).path("availabilitySetId").asText()), listed.toString());

        CliRun down = gantry("vm", "down", "--all");

        assertEquals(0, down.exitCode, down.toString());
        assertFalse(arm.exists("gantry-rg", "Microsoft.Compute/availabilitySets", "ib-fabric"));
    }

    /**
     * Where the plan names zones ({@code --zone} picks one of them), the two VMs of the RDMA plan are the instances of
     * one Uniform scale set in that zone,
     * limited to a single placement group, with the plan's HPC image; they are listed with the set and usable by the
     * manual backend by their instance names; {@code vm down} removes the set with them.
     */
    @Test
    void theVmsOfAZonalRdmaPlanAreTheInstancesOfOneScaleSetAndGoWithIt() throws Exception {
        Files.writeString(work.resolve("ib.yaml"), spec("ib", "resources: {gpus: 8, nodes: 2, interconnect: "
                + "infiniband}"));
        offer("ib.yaml");
        configure("[ibz-fabric_0, ibz-fabric_1]");
        vmAtH1("ibz-fabric_0");
        vmAtH1("ibz-fabric_1");

        CliRun made = gantry("vm", "up", "ib.yaml", "--resource-group", "gantry-rg", "--subscription",
                ArmFake.SUBSCRIPTION, "--admin-user", h1.user(), "--ssh-key", h1.identity() + ".pub", "--name-prefix",
                "ibz", "--zone", "2", "--skip-doctor", "--wait-timeout", "30s", "--output", "json");

        assertEquals(0, made.exitCode, made.toString());
        assertTrue(made.err.contains(" zone 2 ") && made.err.contains(" as the instances of scale set ibz-fabric, one "
                + "placement group (so that they share one InfiniBand fabric in the zone)"), made.err);
        JsonNode set = arm.requests("PUT", "/virtualMachineScaleSets/ibz-fabric").get(0).body();
        assertEquals("[\"2\"]", set.path("zones").toString());
        assertTrue(set.path("properties").path("singlePlacementGroup").asBoolean(), set.toString());
        assertEquals(2, set.path("sku").path("capacity").asInt());
        assertTrue(set.path("sku").path("name").asText().startsWith("Standard_ND"), set.toString());
        assertEquals("microsoft-dsvm", set.path("properties").path("virtualMachineProfile").path("storageProfile")
                .path("imageReference").path("publisher").asText(), "the plan's HPC image");
        assertTrue(arm.requests("PUT", "/availabilitySets/ibz-fabric").isEmpty());
        JsonNode listed = Json.MAPPER.readTree(gantry("vm", "list", "--output", "json").out);
        assertEquals(2, listed.size(), listed.toString());
        String setId = ArmFake.resourcePath("gantry-rg", "Microsoft.Compute/virtualMachineScaleSets", "ibz-fabric");
        assertTrue(setId.equalsIgnoreCase(listed.get(0).path("scaleSetId").asText()), listed.toString());
        assertEquals("ibz-fabric_0", listed.get(0).path("name").asText());

        CliRun down = gantry("vm", "down", "--all");

        assertEquals(0, down.exitCode, down.toString());
        assertFalse(arm.exists("gantry-rg", "Microsoft.Compute/virtualMachineScaleSets", "ibz-fabric"));
    }

    @Test
    void skipDoctorWaitsForThePortOnly() throws Exception {
        configure("[skip-1]");
        vmAtH1("skip-1");

        CliRun up = up("gpu.yaml", "skip", "--skip-doctor", "--wait-timeout", "30s");

        assertEquals(0, up.exitCode, up.toString());
        assertTrue(up.err.contains("until they answer SSH\n"), up.err);
    }

    /** A progress line on standard error when it is not a terminal: the UTC time first, then what is being done. */
    static final String PROGRESS = "\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ gantry: ";

    @Test
    void upShowsTimestampedProgressOnStandardErrorOnlyAndNoneWithQuiet() throws Exception {
        configure("[prog-1]");
        vmAtH1("prog-1");

        CliRun up = up("gpu.yaml", "prog", "--skip-doctor", "--wait-timeout", "30s", "--output", "json");

        assertEquals(0, up.exitCode, up.toString());
        for (String step : List.of("creating 1 x Standard_\\S+ in \\S+ \\(0 of 1 created\\)",
                "reading SSH host keys through Azure Run Command", "waiting for 1 VM to be ready")) {
            assertTrue(up.err.lines().anyMatch(l -> l.matches(PROGRESS + step)), step + " in: " + up.err);
        }
        assertFalse(up.err.contains("\r") || up.err.contains("\033"), "plain lines only: " + up.err);
        assertEquals("prog-1", Json.MAPPER.readTree(up.out).get(0).path("name").asText(),
                "standard output is the JSON alone: " + up.out);

        CliRun quiet = up("gpu.yaml", "prog", "--skip-doctor", "--wait-timeout", "30s", "--quiet");

        assertEquals(0, quiet.exitCode, quiet.toString());
        assertFalse(quiet.err.lines().anyMatch(l -> l.matches(PROGRESS + ".*")), "--quiet: " + quiet.err);
        assertTrue(quiet.out.startsWith("NAME"), quiet.out);
    }

    @Test
    void aDoctorThatCouldNotLogInIsRefusedBeforeAnythingIsCreated() throws Exception {
        Path lonePublicKey = work.resolve("lone.pub");
        Files.copy(Path.of(h1.identity() + ".pub"), lonePublicKey);

        CliRun up = gantry("vm", "up", "cpu.yaml", "--resource-group", "gantry-rg", "--subscription",
                ArmFake.SUBSCRIPTION, "--ssh-key", lonePublicKey.toString());

        assertEquals(2, up.exitCode, up.toString());
        assertTrue(up.err.contains("doctor cannot log in to the new VMs: there is no private key beside " + lonePublicKey
                + " and backends.manual sets neither defaults.identityFile nor defaults.agent; pass --identity FILE, "
                + "or --skip-doctor to wait for port 22 only"), up.err);
        assertTrue(arm.requests().stream().allMatch(r -> r.method().equals("GET")),
                "nothing was created, only the subscription's sizes and quota read: " + arm.requests());
        CliRun badTimeout = up("cpu.yaml", "x", "--wait-timeout", "soon");
        assertEquals(2, badTimeout.exitCode, badTimeout.toString());
        assertTrue(badTimeout.err.contains("'soon' is not a positive duration; write e.g. 90s, 15m or 1h"),
                badTimeout.err);
    }

    @Test
    void theDoctorLogsInWithIdentityElseWithTheConfiguredDefaultsWhenNoKeySitsBesideThePublicKey() throws Exception {
        Path lonePublicKey = work.resolve("lone.pub");
        Files.copy(Path.of(h1.identity() + ".pub"), lonePublicKey);
        vmAtH1("id-1");
        Files.writeString(work.resolve("gantry.yaml"), "backend: manual\n");

        CliRun explicit = gantry("vm", "up", "cpu.yaml", "--resource-group", "gantry-rg", "--subscription",
                ArmFake.SUBSCRIPTION, "--admin-user", h1.user(), "--ssh-key", lonePublicKey.toString(), "--name-prefix",
                "id", "--count", "1", "--identity", h1.identity().toString(), "--wait-timeout", "1m");
        assertEquals(0, explicit.exitCode, explicit.toString());

        configure("[cfg-1]");
        vmAtH1("cfg-1");
        CliRun configured = gantry("vm", "up", "cpu.yaml", "--resource-group", "gantry-rg", "--subscription",
                ArmFake.SUBSCRIPTION, "--admin-user", h1.user(), "--ssh-key", lonePublicKey.toString(), "--name-prefix",
                "cfg", "--count", "1", "--wait-timeout", "1m");
        assertEquals(0, configured.exitCode, configured.toString());
        JsonNode vms = Json.MAPPER.readTree(gantry("vm", "list", "--output", "json").out);
        assertEquals(2, vms.size());
        assertEquals("nlp", vms.get(0).path("labels").path("team").asText(), "the workload's labels: " + vms);
    }

    @Test
    void aProvisionedNameThatMatchesNothingIsAConfigErrorNamingTheVmsThatExist() throws Exception {
        configure("[e2e-1]");
        vmAtH1("e2e-1");
        assertEquals(0, up("cpu.yaml", "e2e", "--skip-doctor").exitCode);
        configure("[e2e-1, train-*]");

        CliRun run = gantry("run", "cpu.yaml");

        assertEquals(2, run.exitCode, run.toString());
        assertTrue(run.err.contains("backends.manual.provisioned[1]: 'train-*' matches no VM Gantry provisioned "
                + "(VMs: e2e-1); name one of them, or list the host under hosts[*] instead"), run.err);
    }

    @Test
    void anInventoryOfAnEarlierVersionIsMovedIntoTheStateDirectory() throws Exception {
        Path legacy = home.resolve(".gantry").resolve("vms").resolve("vms.json");
        Files.createDirectories(legacy.getParent());
        Files.writeString(legacy, "{\"version\":1,\"vms\":[{\"name\":\"old-1\",\"resourceId\":\"x\","
                + "\"resourceGroup\":\"rg\",\"region\":\"eastus\",\"vmSize\":\"s\",\"adminUser\":\"u\","
                + "\"privateIp\":\"10.0.0.1\",\"createdAt\":\"2026-11-29T12:00:00Z\",\"nicId\":\"n\","
                + "\"osDiskId\":\"d\"}]}");

        CliRun list = gantry("vm", "list");

        assertEquals(0, list.exitCode, list.toString());
        assertTrue(list.err.contains("gantry: moved the VM inventory from " + legacy + " to "
                + home.resolve("state").resolve("vms").resolve("vms.json")), list.err);
        assertTrue(list.out.lines().anyMatch(l -> l.startsWith("old-1") && l.endsWith("not recorded (run vm up again)")),
                list.out);
        assertFalse(Files.exists(legacy));
    }
}
