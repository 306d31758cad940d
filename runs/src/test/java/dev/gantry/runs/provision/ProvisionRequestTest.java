package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Architecture;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import java.util.Set;
import java.math.BigDecimal;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class ProvisionRequestTest {
    static final ImageRef IMAGE = ImageRef.marketplace("Ubuntu", "canonical:ubuntu-24_04-lts:server:latest");

    static ProvisionRequest request(String subscription, String group, String region, ImageRef image, int count,
            String user, String key, String prefix, Map<String, String> tags) {
        return new ProvisionRequest(subscription, group, region, "Standard_NC24ads_A100_v4", image, count,
                Optional.empty(), user, key, "#cloud-config\n", false, "*", prefix,
                ProvisionRequest.Network.defaults(), tags);
    }

    @Test
    void everyProblemIsReportedWithItsFieldAndValue() {
        GantryException e = assertThrows(GantryException.class, () -> request("not-a-guid", "rg.", "East US",
                ImageRef.marketplace("x", "canonical:ubuntu"), 0, "root", VmProvisionerTest.KEY, "Train-",
                Map.of("gantry:managed", "false")));

        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of("subscriptionId", "resourceGroup", "region", "image", "count", "adminUser", "namePrefix",
                "tags.gantry:managed"), e.problems().stream().map(Problem::path).toList());
        assertTrue(e.getMessage().contains("region: 'East US' is not valid; allowed: an Azure region name in lower "
                + "case, such as eastus"), e.getMessage());
        assertTrue(e.getMessage().contains("count: 0 is out of range; allowed: 1 to 100"), e.getMessage());
        assertTrue(e.getMessage().contains("adminUser: 'root' is reserved by Azure"), e.getMessage());
    }

    @Test
    void aPrivateKeyIsRefusedWithoutBeingEchoed() {
        String secret = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAA\n-----END OPENSSH PRIVATE KEY-----";
        GantryException e = assertThrows(GantryException.class, () -> request(ArmFake.SUBSCRIPTION, "rg", "eastus",
                IMAGE, 1, "gantry", secret, "train", Map.of()));

        assertEquals("sshPublicKey: looks like a private key; give the public key (the .pub file) and keep the "
                + "private key to yourself", e.getMessage());
        assertFalse(e.getMessage().contains("b3BlbnNzaC1rZXktdjEAAAAA"));
    }

    @ParameterizedTest
    @CsvSource(delimiter = '|', value = {
        "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl|true",
        "ssh-rsa AAAAB3NzaC1yc2EAAAADAQABAAABAQC7 user@host|true",
        "ssh-dss AAAAB3NzaC1kc3MAAACBAP|false",
        "AAAAC3NzaC1lZDI1NTE5AAAAIOMqqnkVzrm0SdG6UOoqKLsabgH5C9okWi0dh2l9GKJl|false",
    })
    void onlyOpenSshPublicKeysOfSupportedTypesAreAccepted(String key, boolean accepted) {
        boolean ok;
        try {
            request(ArmFake.SUBSCRIPTION, "rg", "eastus", IMAGE, 1, "gantry", key, "train", Map.of());
            ok = true;
        } catch (GantryException e) {
            assertEquals("sshPublicKey", e.problems().get(0).path());
            ok = false;
        }
        assertEquals(accepted, ok);
    }

    @Test
    void theHostImageAndMalformedGalleryIdsCannotBeProvisioned() {
        GantryException host = assertThrows(GantryException.class, () -> request(ArmFake.SUBSCRIPTION, "rg",
                "eastus", ImageRef.host(), 1, "gantry", VmProvisionerTest.KEY, "train", Map.of()));
        assertTrue(host.getMessage().startsWith("image: 'host OS' describes machines Gantry does not create"));

        GantryException gallery = assertThrows(GantryException.class, () -> request(ArmFake.SUBSCRIPTION, "rg",
                "eastus", new ImageRef("mine", "my-image", ImageRef.Kind.GALLERY), 1, "gantry", VmProvisionerTest.KEY,
                "train", Map.of()));
        assertTrue(gallery.getMessage().startsWith("image: 'my-image' is not an Azure Compute Gallery image ID"));
    }

    @Test
    void spotPriceMustBePositiveOrMinusOneWithAtMostFiveDecimals() {
        GantryException e = assertThrows(GantryException.class, () -> new ProvisionRequest(ArmFake.SUBSCRIPTION, "rg",
                "eastus", "Standard_NC24ads_A100_v4", IMAGE, 1, Optional.of(new ProvisionRequest.Spot(
                        ProvisionRequest.EvictionPolicy.DELETE, new BigDecimal("0.123456"))), "gantry",
                VmProvisionerTest.KEY, "", false, "*", "train", ProvisionRequest.Network.defaults(), Map.of()));
        assertEquals("spot.maxPricePerHour: 0.123456 has more than 5 decimal places, which Azure refuses; round it, "
                + "e.g. 0.12346", e.getMessage());

        GantryException zero = assertThrows(GantryException.class, () -> new ProvisionRequest(ArmFake.SUBSCRIPTION,
                "rg", "eastus", "Standard_NC24ads_A100_v4", IMAGE, 1, Optional.of(new ProvisionRequest.Spot(
                        ProvisionRequest.EvictionPolicy.DELETE, BigDecimal.ZERO)), "gantry",
                VmProvisionerTest.KEY, "", false, "*", "train", ProvisionRequest.Network.defaults(), Map.of()));
        assertTrue(zero.getMessage().startsWith("spot.maxPricePerHour: 0 is not allowed"));
    }

    @Test
    void customDataOverAzuresLimitIsRefused() {
        String big = "#".repeat(ProvisionRequest.MAX_CUSTOM_DATA_BYTES + 1);
        GantryException e = assertThrows(GantryException.class, () -> new ProvisionRequest(ArmFake.SUBSCRIPTION, "rg",
                "eastus", "Standard_NC24ads_A100_v4", IMAGE, 1, Optional.empty(), "gantry", VmProvisionerTest.KEY,
                big, false, "*", "train", ProvisionRequest.Network.defaults(), Map.of()));
        assertEquals("cloudInit: 65536 bytes is more than Azure's custom-data limit of 65535 bytes", e.getMessage());
    }

    @Test
    void aSpotPlanBecomesPrivateSpotVmsThatAreDeletedOnEviction() {
        VmSize size = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220, Optional.empty(), false,
                Architecture.X64, Set.of("V2"));
        Workload workload = Workload.builder("finetune").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .label("team", "nlp").command("python", "train.py").build();
        Plan plan = Plan.builder(workload, size).region("westus3").nodes(2).spot(true).image(IMAGE).build();

        ProvisionRequest request = ProvisionRequest.forPlan(plan, ArmFake.SUBSCRIPTION, "rg", "gantry",
                VmProvisionerTest.KEY, "#cloud-config\n", "finetune");

        assertEquals("westus3/Standard_NC24ads_A100_v4/2", request.region() + "/" + request.vmSize() + "/"
                + request.count());
        assertEquals(IMAGE, request.image());
        assertEquals(Optional.of(ProvisionRequest.Spot.upToOnDemand(ProvisionRequest.EvictionPolicy.DELETE)),
                request.spot());
        assertFalse(request.publicIp());
        assertEquals(Map.of("team", "nlp", "gantry:workload", "finetune", "gantry:managed", "true"),
                request.resourceTags());
        assertEquals(5, request.withCount(5).count());
        ProvisionRequest exposed = request.withPublicIp("198.51.100.7");
        assertTrue(exposed.publicIp());
        assertEquals("198.51.100.7", exposed.sshSource());
        GantryException bad = assertThrows(GantryException.class, () -> request.withPublicIp("anywhere at all"));
        assertEquals("sshSource", bad.problems().get(0).path());
    }

    @Test
    void theVmsOfAnRdmaPlanShareOneFabricWhateverTheirCountAndOthersDoNot() {
        VmSize nd = new VmSize("Standard_ND96isr_H100_v5", "NDH100v5", 96, 1900, Optional.empty(), true,
                Architecture.X64, Set.of("V2"));
        VmSize nc = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220, Optional.empty(), false,
                Architecture.X64, Set.of("V2"));
        Workload workload = Workload.builder("pretrain").phase(Phase.TRAINING).model(ModelClass.GENERATIVE)
                .command("python", "train.py").build();

        ProvisionRequest rdma = ProvisionRequest.forPlan(Plan.builder(workload, nd).region("eastus").nodes(2)
                .image(IMAGE).build(), ArmFake.SUBSCRIPTION, "rg", "gantry", VmProvisionerTest.KEY, "", "pretrain");
        assertTrue(rdma.sharedFabric());
        assertEquals(Optional.empty(), rdma.zone(), "no zone asked and none in the plan: regional");
        assertTrue(rdma.withCount(1).sharedFabric(), "one VM too, so that a higher count joins its set");
        assertTrue(rdma.withPublicIp("*").withCount(4).sharedFabric());
        assertEquals(FabricPlacement.Fabric.AVAILABILITY_SET, rdma.fabric(), "regional: an availability set");
        assertEquals(FabricPlacement.Fabric.SCALE_SET, rdma.withZone("2").fabric(), "zonal: a scale set");
        assertEquals(Optional.of("2"), rdma.withZone("2").zone());
        assertEquals(FabricPlacement.Fabric.NONE, rdma.withSharedFabric(false).withZone("2").fabric());
        GantryException tooMany = assertThrows(GantryException.class, () -> rdma.withZone("2").withCount(101));
        assertEquals("count", tooMany.problems().get(0).path());
        assertEquals("101 VMs do not fit one InfiniBand fabric in a zone: they are the instances of a scale set "
                + "limited to a single placement group, which Azure caps at 100 VMs; allowed: 1 to 100 (or leave the "
                + "zone out: an availability set holds up to 200)", tooMany.problems().get(0).message());
        assertEquals(100, rdma.withZone("2").withCount(100).count());
        assertFalse(ProvisionRequest.forPlan(Plan.builder(workload, nc).region("eastus").nodes(2).image(IMAGE)
                .build(), ArmFake.SUBSCRIPTION, "rg", "gantry", VmProvisionerTest.KEY, "", "pretrain").sharedFabric());
    }

    @Test
    void aZoneIsOneOfAzuresThreeLogicalZones() {
        ProvisionRequest request = VmProvisionerTest.request(2, Optional.empty(), false);
        for (String zone : List.of("1", "2", "3")) {
            assertEquals(Optional.of(zone), request.withZone(zone).zone());
        }
        for (String zone : List.of("0", "4", "eastus-1", "")) {
            GantryException bad = assertThrows(GantryException.class, () -> request.withZone(zone));
            assertEquals(ErrorCode.CONFIG_INVALID, bad.code());
            assertEquals("zone", bad.problems().get(0).path());
            assertEquals("'" + zone + "' is not an availability zone; allowed: 1, 2 or 3 (Azure's logical zones), or "
                    + "none for regional VMs", bad.problems().get(0).message());
        }
    }

    @Test
    void namesAndTagsFollowThePrefixAndAlwaysMarkTheVmsAsManaged() {
        ProvisionRequest request = request(ArmFake.SUBSCRIPTION, "rg", "eastus", IMAGE, 3, "gantry",
                VmProvisionerTest.KEY, "infer", Map.of("gantry:workload", "chat"));

        assertEquals(List.of("infer-1", "infer-2", "infer-3"), request.vmNames());
        assertEquals(Map.of("gantry:workload", "chat", "gantry:managed", "true"), request.resourceTags());
    }
}
