package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.azure.core.credential.TokenCredential;
import com.azure.core.exception.ClientAuthenticationException;
import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.core.ManualClock;
import java.math.BigDecimal;
import dev.gantry.ssh.TestHosts;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Mono;

class VmProvisionerTest extends ProvisioningFixture {
    static final String RG = "gantry-rg";
    static final String KEY = "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl me@laptop";
    static final String CLOUD_INIT = "#cloud-config\nruncmd:\n  - [ nvidia-smi ]\n";

    static ProvisionRequest request(int count, Optional<ProvisionRequest.Spot> spot, boolean publicIp) {
        return new ProvisionRequest(ArmFake.SUBSCRIPTION, RG, "eastus", "Standard_ND96isr_H100_v5",
                ImageRef.marketplace("Ubuntu HPC 22.04", "microsoft-dsvm:ubuntu-hpc:2204:latest"), count, spot,
                "gantry", KEY, CLOUD_INIT, publicIp, "203.0.113.0/24", "train", ProvisionRequest.Network.defaults(),
                Map.of("gantry:plan", "llm-7b"));
    }

    JsonNode vmBody(String name) {
        List<ArmFake.Request> puts = arm.requests("PUT", "/providers/Microsoft.Compute/virtualMachines/" + name);
        assertEquals(1, puts.size(), "one PUT of VM " + name);
        return puts.get(0).body().path("properties");
    }

    @Test
    void upCreatesPrivateVmsWithSshKeyCloudInitAndTagsThroughTheSdk() {
        List<ProvisionedVm> vms = provisioner().up(request(2, Optional.empty(), false));

        assertEquals(List.of("train-1", "train-2"), vms.stream().map(ProvisionedVm::name).toList());
        assertTrue(vms.stream().allMatch(ProvisionedVm::created));
        JsonNode vm = vmBody("train-1");
        JsonNode os = vm.path("osProfile");
        assertEquals(CLOUD_INIT, new String(Base64.getDecoder().decode(os.path("customData").asText()),
                StandardCharsets.UTF_8));
        assertEquals("gantry", os.path("adminUsername").asText());
        assertTrue(os.path("linuxConfiguration").path("disablePasswordAuthentication").asBoolean());
        JsonNode key = os.path("linuxConfiguration").path("ssh").path("publicKeys").get(0);
        assertEquals(KEY, key.path("keyData").asText());
        assertEquals("/home/gantry/.ssh/authorized_keys", key.path("path").asText());
        assertFalse(os.has("adminPassword"));
        assertEquals("Standard_ND96isr_H100_v5", vm.path("hardwareProfile").path("vmSize").asText());
        JsonNode image = vm.path("storageProfile").path("imageReference");
        assertEquals("microsoft-dsvm/ubuntu-hpc/2204/latest", image.path("publisher").asText() + "/"
                + image.path("offer").asText() + "/" + image.path("sku").asText() + "/" + image.path("version").asText());
        assertEquals("Delete", vm.path("storageProfile").path("osDisk").path("deleteOption").asText());
        assertFalse(vm.has("priority"), "on-demand VMs send no priority");
        JsonNode tags = arm.requests("PUT", "/virtualMachines/train-1").get(0).body().path("tags");
        assertEquals("true", tags.path("gantry:managed").asText());
        assertEquals("llm-7b", tags.path("gantry:plan").asText());

        assertTrue(arm.requests("PUT", "/publicIPAddresses/train-1-ip").isEmpty(), "no public IP unless asked");
        JsonNode nic = arm.requests("PUT", "/networkInterfaces/train-1-nic").get(0).body();
        assertFalse(nic.path("properties").path("ipConfigurations").get(0).path("properties").has("publicIPAddress"));
        assertTrue(arm.requests("PUT", "/networkSecurityGroups/gantry-ssh").isEmpty());

        // The resource group and default network did not exist, so they were created once.
        assertEquals(1, arm.requests("PUT", "/resourceGroups/" + RG).size());
        JsonNode vnet = arm.requests("PUT", "/virtualNetworks/gantry-vnet").get(0).body().path("properties");
        assertEquals("10.210.0.0/16", vnet.path("addressSpace").path("addressPrefixes").get(0).asText());
        assertEquals("default", vnet.path("subnets").get(0).path("name").asText());

        // The VM PUT was a long-running operation, polled through InProgress to Succeeded.
        assertTrue(arm.requests().stream().filter(r -> r.is("GET", "")).anyMatch(r -> r.path().contains(
                "/providers/Microsoft.Compute/locations/eastus/operations/")));
        assertEquals(4, arm.inProgressAnswers(), "each VM's creation and its Run Command answered InProgress once "
                + "before Succeeded");
        assertTrue(arm.requests().stream().allMatch(r -> ("Bearer " + ArmFake.TOKEN).equals(
                r.headers().get("authorization"))));

        VmInventoryEntry first = inventory.find("train-1").orElseThrow();
        assertEquals(vms.get(0).vm(), first);
        assertEquals("10.210.0.4", first.privateIp());
        assertEquals(Optional.empty(), first.publicIp());
        assertEquals(ArmFake.resourcePath(RG, "Microsoft.Compute/disks", "train-1-osdisk"), first.osDiskId());
        assertEquals(List.of("train-1@10.210.0.4", "train-2@10.210.0.5"), readinessProbes);
    }

    @Test
    void hostKeysAreReadThroughRunCommandAndRecordedBeforeTheReadinessWait() throws Exception {
        TestHosts.Host h1 = TestHosts.host(1);
        arm.hostKeys("train-1", Files.readString(TestHosts.stateDir().resolve("h1").resolve("ssh_host_ed25519_key.pub")));
        List<String> pinnedAtProbe = new ArrayList<>();
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
        VmProvisioner provisioner = new VmProvisioner(arm.connector(), inventory, new ReadinessWait(vm -> {
            pinnedAtProbe.add(vm.name() + " " + vm.hostKeyFingerprints() + " recorded="
                    + inventory.find(vm.name()).orElseThrow().hostKeyFingerprints());
            return ReadinessCheck.Readiness.ok();
        }, Duration.ofMinutes(1), Duration.ofSeconds(1), clock, pause -> { }), clock);

        List<ProvisionedVm> vms = provisioner.up(request(2, Optional.empty(), false));

        assertEquals(List.of(h1.fingerprint()), vms.get(0).vm().hostKeyFingerprints());
        assertEquals(List.of("SHA256:7tZ6Ld+TSLFR6n9hvGBMM1Hl2IwF9I7M59nDitEVmZE"),
                vms.get(1).vm().hostKeyFingerprints(), "the fake's default key");
        assertEquals(List.of("train-1 [" + h1.fingerprint() + "] recorded=[" + h1.fingerprint() + "]",
                "train-2 [SHA256:7tZ6Ld+TSLFR6n9hvGBMM1Hl2IwF9I7M59nDitEVmZE] recorded=[SHA256:7tZ6Ld+TSLFR6n9hvGBMM1Hl2IwF9I7M59nDitEVmZE]"),
                pinnedAtProbe);
        List<ArmFake.Request> runs = arm.requests("POST", "/virtualMachines/train-1/runCommand");
        assertEquals(1, runs.size());
        assertEquals("RunShellScript", runs.get(0).body().path("commandId").asText());
        List<String> script = new ArrayList<>();
        runs.get(0).body().path("script").forEach(line -> script.add(line.asText()));
        assertEquals(HostKeyScript.LINES, script);
        // The SDK followed the contract: the async operation to Succeeded, then the Location URL for the result.
        assertTrue(arm.requests().stream().anyMatch(r -> r.is("GET", "") && r.path().contains(
                "/providers/Microsoft.Compute/locations/eastus/operationResults/")));
    }

    @Test
    void aThrottledRunCommandAnsweredWithOnlyALocationStillReadsTheHostKeys() {
        arm.throttle("/runCommand", 1, "1");
        arm.runCommandLocationOnly();

        List<ProvisionedVm> vms = provisioner().up(request(1, Optional.empty(), false));

        assertEquals(1, arm.throttled("/runCommand"), "the 429 was retried after its Retry-After");
        assertEquals(2, arm.requests("POST", "/virtualMachines/train-1/runCommand").size());
        assertEquals(List.of("SHA256:7tZ6Ld+TSLFR6n9hvGBMM1Hl2IwF9I7M59nDitEVmZE"),
                vms.get(0).vm().hostKeyFingerprints(), "the result read from the Location URL");
        List<ArmFake.Request> all = arm.requests();
        List<ArmFake.Request> afterRun = all.subList(all.lastIndexOf(arm.requests("POST",
                "/virtualMachines/train-1/runCommand").get(1)) + 1, all.size());
        assertTrue(afterRun.stream().anyMatch(r -> r.path().contains("/operationResults/")), afterRun.toString());
        assertTrue(afterRun.stream().noneMatch(r -> r.path().contains("/operations/")),
                "no Azure-AsyncOperation URL was offered for the Run Command, so none was polled");
    }

    @Test
    void aRerunKeepsTheRecordedKeysAndReadsThemOnlyForVmsThatHaveNone() throws Exception {
        provisioner().up(request(1, Optional.empty(), false));
        // An inventory from before host keys were captured: the same VM, recorded without them.
        VmInventoryEntry old = inventory.find("train-1").orElseThrow();
        provisioner().up(request(1, Optional.empty(), false));
        assertEquals(1, arm.requests("POST", "/virtualMachines/train-1/runCommand").size(), "kept, not read again");

        inventory.put(old.withHostKeyFingerprints(List.of()));
        arm.hostKeys("train-1", "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIIdUs8Iojpkx/XwiiFxz+xB1gS7glq9G182U8702WdDw x");
        provisioner().up(request(1, Optional.empty(), false));

        assertEquals(2, arm.requests("POST", "/virtualMachines/train-1/runCommand").size());
        assertEquals(List.of("SHA256:cm3D27kl1vkmGd8jmQdvM5rcocvQIvjh7XtvlEzgVtI"),
                inventory.find("train-1").orElseThrow().hostKeyFingerprints());
    }

    @Test
    void aVmWhoseKeysCannotBeReadStaysRecordedUnpinnedAndIsNotWaitedFor() {
        arm.runCommandOutput("train-2", "Welcome!\n", "ls: cannot access '/etc/ssh/ssh_host_*_key.pub'");
        arm.rejectRunCommand("train-3", 409, "OperationNotAllowed", "The VM agent is not ready.");

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(request(3, Optional.empty(),
                false)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("train-2: VM train-2 was created and recorded, but its SSH host keys could "
                + "not be read through Azure Run Command"), e.getMessage());
        assertTrue(e.getMessage().contains("found no SSH host key in /etc/ssh/ssh_host_*_key.pub (Enable succeeded; "
                + "stderr: ls: cannot access"), e.getMessage());
        assertTrue(e.getMessage().contains("train-3: VM train-3 was created and recorded") && e.getMessage()
                .contains("The VM agent is not ready"), e.getMessage());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-1"), e.getMessage());
        assertTrue(readinessProbes.isEmpty(), "no readiness wait while some VM cannot be verified");
        assertTrue(inventory.find("train-1").orElseThrow().hostKeyPinned());
        assertFalse(inventory.find("train-2").orElseThrow().hostKeyPinned());
        assertFalse(inventory.find("train-3").orElseThrow().hostKeyPinned());
    }

    @Test
    void vmsThatNeverAnswerAreReportedButStayRecordedForVmDown() {
        ManualClock clock = new ManualClock(Instant.parse("2026-11-29T12:00:00Z"));
        VmProvisioner silent = new VmProvisioner(arm.connector(), inventory, new ReadinessWait(
                vm -> ReadinessCheck.Readiness.notYet("port 22 at " + vm.sshAddress() + " does not answer"),
                Duration.ofSeconds(30), Duration.ofSeconds(10), clock, clock::advance),
                clock);

        GantryException e = assertThrows(GantryException.class, () -> silent.up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("train-1: port 22 at 10.210.0.4 does not answer"), e.getMessage());
        assertEquals(List.of("train-1"), inventory.list().stream().map(VmInventoryEntry::name).toList());
        provisioner().down(List.of("train-1"));
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-1"));
    }

    @Test
    void spotVmsCarryPriorityEvictionPolicyAndMaxPrice() {
        provisioner().up(request(1, Optional.of(new ProvisionRequest.Spot(ProvisionRequest.EvictionPolicy.DELETE,
                new BigDecimal("12.5"))), false));

        JsonNode vm = vmBody("train-1");
        assertEquals("Spot", vm.path("priority").asText());
        assertEquals("Delete", vm.path("evictionPolicy").asText());
        assertEquals(12.5, vm.path("billingProfile").path("maxPrice").asDouble());
        assertTrue(inventory.find("train-1").orElseThrow().spot());
    }

    @Test
    void spotUpToOnDemandSendsMinusOne() {
        provisioner().up(request(1, Optional.of(ProvisionRequest.Spot.upToOnDemand(
                ProvisionRequest.EvictionPolicy.DEALLOCATE)), false));

        JsonNode vm = vmBody("train-1");
        assertEquals("Deallocate", vm.path("evictionPolicy").asText());
        assertEquals(-1.0, vm.path("billingProfile").path("maxPrice").asDouble());
    }

    @Test
    void publicIpIsStandardStaticAndOnlySshFromTheGivenSourceIsOpened() {
        List<ProvisionedVm> vms = provisioner().up(request(1, Optional.empty(), true));

        JsonNode ip = arm.requests("PUT", "/publicIPAddresses/train-1-ip").get(0).body();
        assertEquals("Standard", ip.path("sku").path("name").asText());
        assertEquals("Static", ip.path("properties").path("publicIPAllocationMethod").asText());
        JsonNode rule = arm.requests("PUT", "/networkSecurityGroups/gantry-ssh").get(0).body()
                .path("properties").path("securityRules").get(0).path("properties");
        assertEquals("22", rule.path("destinationPortRange").asText());
        assertEquals("203.0.113.0/24", rule.path("sourceAddressPrefix").asText());
        assertEquals("Allow", rule.path("access").asText());
        JsonNode nic = arm.requests("PUT", "/networkInterfaces/train-1-nic").get(0).body().path("properties");
        assertTrue(nic.path("networkSecurityGroup").path("id").asText().endsWith("/networkSecurityGroups/gantry-ssh"));
        VmInventoryEntry vm = vms.get(0).vm();
        assertEquals(Optional.of("20.51.0.10"), vm.publicIp());
        assertEquals("20.51.0.10", vm.sshAddress());
        assertEquals(List.of("train-1@20.51.0.10"), readinessProbes);
    }

    @Test
    void rerunningUpReusesManagedVmsInsteadOfDuplicatingThem() {
        provisioner().up(request(1, Optional.empty(), false));
        List<ProvisionedVm> again = provisioner().up(request(2, Optional.empty(), false));

        assertFalse(again.get(0).created(), "train-1 existed");
        assertTrue(again.get(1).created(), "train-2 is new");
        assertEquals(1, arm.requests("PUT", "/virtualMachines/train-1").size());
        assertEquals(1, arm.requests("PUT", "/resourceGroups/" + RG).size(), "existing group left alone");
        assertEquals(1, arm.requests("PUT", "/virtualNetworks/gantry-vnet").size(), "existing network left alone");
        assertEquals(List.of("train-1", "train-2"), inventory.list().stream().map(VmInventoryEntry::name).toList());
    }

    @Test
    void aVmOfTheSameNameNotCreatedByGantryIsNotTouched() {
        provisioner().up(request(1, Optional.empty(), false));
        arm.resource(RG, "Microsoft.Compute/virtualMachines", "train-1").orElseThrow().remove("tags");

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertTrue(e.getMessage().contains("VM train-1 already exists"), e.getMessage());
        assertEquals(1, arm.requests("PUT", "/virtualMachines/train-1").size());
    }

    @Test
    void anExistingVmOfAnotherSizeIsNotSilentlyReused() {
        provisioner().up(request(1, Optional.empty(), false));
        ProvisionRequest smaller = new ProvisionRequest(ArmFake.SUBSCRIPTION, RG, "eastus", "Standard_NC24ads_A100_v4",
                ImageRef.marketplace("Ubuntu HPC 22.04", "microsoft-dsvm:ubuntu-hpc:2204:latest"), 1, Optional.empty(),
                "gantry", KEY, CLOUD_INIT, false, "*", "train", ProvisionRequest.Network.defaults(), Map.of());

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(smaller));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals("VM train-1 already exists with size Standard_ND96isr_H100_v5, but the request asks for "
                + "Standard_NC24ads_A100_v4; choose another name prefix, or remove the old VMs first with gantry vm "
                + "down", e.getMessage());
        assertTrue(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-1"), "the existing VM is left alone");
    }

    @Test
    void anEvictedSpotVmIsReportedInsteadOfReused() {
        var spot = Optional.of(ProvisionRequest.Spot.upToOnDemand(ProvisionRequest.EvictionPolicy.DEALLOCATE));
        provisioner().up(request(1, spot, false));
        arm.setPowerState("train-1", "deallocated");

        GantryException e = assertThrows(GantryException.class, () -> provisioner().up(request(1, spot, false)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("exists but is deallocated (a spot VM may have been evicted)"),
                e.getMessage());
    }

    @Test
    void quotaFailureNamesRegionFamilyLimitUsageAndTheFixAndCleansUpTheNic() {
        arm.rejectVmCreate("train-1", 409, "OperationNotAllowed", ArmFake.QUOTA_MESSAGE);

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(1, Optional.empty(), true)));

        assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
        String message = e.getMessage();
        assertTrue(message.startsWith("Quota exceeded while creating VM train-1: Standard_ND96isr_H100_v5 in eastus "
                + "needs 96 more vCPUs of the standardNDSH100v5Family quota, whose limit is 0 with 0 in use. Request a "
                + "quota increase for standardNDSH100v5Family in eastus to at least 96 vCPUs (Azure portal: Quotas > "
                + "Compute), or plan another region or VM size."), message);
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-1-nic"), "NIC cleaned up");
        assertFalse(arm.exists(RG, "Microsoft.Network/publicIPAddresses", "train-1-ip"), "public IP cleaned up");
        assertTrue(inventory.list().isEmpty());
        assertTrue(readinessProbes.isEmpty());
    }

    @Test
    void failureAfterSomeVmsKeepsAndNamesTheOnesAlreadyProvisioned() {
        arm.rejectVmCreate("train-2", 409, "OperationNotAllowed", ArmFake.QUOTA_MESSAGE);

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(2, Optional.empty(), false)));

        assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-1"), e.getMessage());
        assertTrue(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-1"));
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-2-nic"));
        assertEquals(List.of("train-1"), inventory.list().stream().map(VmInventoryEntry::name).toList());
    }

    @Test
    void vmsAreCreatedInParallelAndOneFailedProvisioningSparesTheOthers() {
        arm.failVmProvisioning("train-2", "AllocationFailed", "Allocation failed.");

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(3, Optional.empty(), false)));

        List<ArmFake.Request> all = arm.requests();
        int lastPut = all.indexOf(arm.requests("PUT", "/virtualMachines/train-3").get(0));
        int firstPoll = all.indexOf(all.stream().filter(r -> r.path().contains("/Microsoft.Compute/locations/eastus/operations/")).filter(r ->
                all.indexOf(r) > all.indexOf(arm.requests("PUT", "/virtualMachines/train-1").get(0))).findFirst()
                .orElseThrow());
        assertTrue(lastPut < firstPoll, "all three creations started before the first was polled");
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("Already provisioned and recorded: train-1, train-3"), e.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-2"));
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-2-nic"));
        assertEquals(List.of("train-1", "train-3"), inventory.list().stream().map(VmInventoryEntry::name).toList());
        assertTrue(readinessProbes.isEmpty(), "no readiness wait when the request as a whole failed");
    }

    @Test
    void skuNotAvailableIsAPlanRejectionThatSuggestsACatalogRefresh() {
        arm.rejectVmCreate("train-1", 409, "SkuNotAvailable", "The requested VM size for resource "
                + "'Following SKUs have failed for Capacity Restrictions: Standard_ND96isr_H100_v5' is currently not "
                + "available in location 'eastus'. Please try another size or deploy to a different location or "
                + "different zone. See https://aka.ms/azureskunotavailable for details.");

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("VM size Standard_ND96isr_H100_v5 is not available to this subscription "
                + "in region eastus (SkuNotAvailable). Run gantry catalog refresh"), e.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-1-nic"));
    }

    @Test
    void aVmWhoseProvisioningFailsIsDeletedWithItsDiskAndNic() {
        arm.failVmProvisioning("train-1", "AllocationFailed", "Allocation failed. We do not have sufficient capacity "
                + "for the requested VM size in this region.");

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("Azure has no capacity for Standard_ND96isr_H100_v5 in eastus right now "
                + "(AllocationFailed)"), e.getMessage());
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-1"));
        assertFalse(arm.exists(RG, "Microsoft.Compute/disks", "train-1-osdisk"));
        assertFalse(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-1-nic"));
    }

    @Test
    void refusedCredentialsAreAnAuthFailure() {
        TokenCredential broken = request -> Mono.error(new ClientAuthenticationException(
                "DefaultAzureCredential failed to retrieve a token from the included credentials", null));

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner(arm.connector(broken)).up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("az login"), e.getMessage());
    }

    @Test
    void aTokenArmRejectsIsAnAuthFailure() {
        TokenCredential stale = request -> Mono.just(new com.azure.core.credential.AccessToken("expired",
                java.time.OffsetDateTime.now().plusHours(1)));

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner(arm.connector(stale)).up(request(1, Optional.empty(), false)));

        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("InvalidAuthenticationToken"), e.getMessage());
    }

    @Test
    void downDeletesVmDiskNicAndPublicIpInDependencyOrderAndForgetsThem() {
        provisioner().up(request(2, Optional.empty(), true));
        int before = arm.requests().size();

        provisioner().down(List.of("train-1"));

        List<String> deletes = arm.requests().subList(before, arm.requests().size()).stream()
                .filter(r -> r.method().equals("DELETE"))
                .map(r -> r.path().substring(r.path().indexOf("/providers/") + "/providers/".length()))
                .toList();
        assertEquals(List.of("Microsoft.Compute/virtualMachines/train-1", "Microsoft.Compute/disks/train-1-osdisk",
                "Microsoft.Network/networkInterfaces/train-1-nic", "Microsoft.Network/publicIPAddresses/train-1-ip"),
                deletes);
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-1"));
        assertFalse(arm.exists(RG, "Microsoft.Network/publicIPAddresses", "train-1-ip"));
        assertTrue(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-2"));
        assertEquals(List.of("train-2"), inventory.list().stream().map(VmInventoryEntry::name).toList());
    }

    @Test
    void downCleansUpResourcesThatOutlivedTheirVm() {
        provisioner().up(request(1, Optional.empty(), true));
        VmInventoryEntry vm = inventory.find("train-1").orElseThrow();
        // A VM whose disk and NIC do not go with it (delete options changed in the portal, or an older VM).
        arm.resource(RG, "Microsoft.Compute/virtualMachines", "train-1").orElseThrow()
                .withObjectProperty("properties").withObjectProperty("storageProfile")
                .withObjectProperty("osDisk").put("deleteOption", "Detach");
        arm.resource(RG, "Microsoft.Compute/virtualMachines", "train-1").orElseThrow()
                .withObjectProperty("properties").withObjectProperty("networkProfile").withArray("networkInterfaces")
                .forEach(n -> ((com.fasterxml.jackson.databind.node.ObjectNode) n).remove("properties"));
        provisioner().downEntries(List.of(vm));
        int before = arm.requests().size();
        provisioner().downEntries(List.of(vm)); // everything is gone now: every DELETE answers 204, none fails

        assertTrue(arm.resourceIds().stream().noneMatch(id -> id.contains("train-1")), arm.resourceIds().toString());
        assertEquals(4, arm.requests().size() - before);
        assertTrue(inventory.list().isEmpty());
    }

    @Test
    void aVmThatCannotBeDeletedStaysRecordedWhileTheOthersGo() {
        provisioner().up(request(2, Optional.empty(), false));
        arm.rejectDelete("train-1", 409, "ScopeLocked", "The scope '/subscriptions/.../train-1' cannot perform delete "
                + "operation because following scope(s) are locked: 'keep'.");

        GantryException e = assertThrows(GantryException.class,
                () -> provisioner().down(List.of("train-1", "train-2")));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("could not delete 1 VM(s); they stay in the inventory, run gantry vm down "
                + "again:\n  train-1: Azure answered 409 ScopeLocked while deleting VM train-1"), e.getMessage());
        assertTrue(arm.exists(RG, "Microsoft.Network/networkInterfaces", "train-1-nic"), "nothing after the VM tried");
        assertFalse(arm.exists(RG, "Microsoft.Compute/virtualMachines", "train-2"));
        assertEquals(List.of("train-1"), inventory.list().stream().map(VmInventoryEntry::name).toList());
    }

    @Test
    void theSpotVmBodyMatchesTheGoldenFile() throws Exception {
        provisioner().up(request(1, Optional.of(ProvisionRequest.Spot.upToOnDemand(
                ProvisionRequest.EvictionPolicy.DELETE)), true));

        JsonNode sent = arm.requests("PUT", "/virtualMachines/train-1").get(0).body();
        JsonNode golden;
        try (var in = VmProvisionerTest.class.getResourceAsStream("/provision/vm-spot-public.json")) {
            golden = new com.fasterxml.jackson.databind.ObjectMapper().readTree(in);
        }
        assertEquals(golden, sent, () -> "sent: " + sent.toPrettyString());
    }

    @Test
    void downOfAnUnknownNameListsTheKnownOnes() {
        provisioner().up(request(1, Optional.empty(), false));

        GantryException e = assertThrows(GantryException.class, () -> provisioner().down(List.of("nope")));

        assertEquals(ErrorCode.USAGE, e.code());
        assertTrue(e.getMessage().startsWith("no provisioned VM named nope in "), e.getMessage());
        assertTrue(e.getMessage().endsWith("; known VMs: train-1"), e.getMessage());
        assertNotNull(inventory.find("train-1").orElse(null));
    }
}
