package dev.gantry.backend.batch.internal.validate;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.ImageRef;
import dev.gantry.api.ModelClass;
import dev.gantry.api.NodeBoot;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SecretRef;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.backend.batch.fake.BatchFake;
import dev.gantry.backend.batch.fake.BatchFakeOptions;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchAuth;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.ExistingPool;
import dev.gantry.backend.batch.internal.FakeAccounts;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** validate's checks against the Batch fake's supportedimages and ArmFake's account, VM sizes and usages. */
class PlanCheckTest {
    private static final ImageRef UBUNTU = ImageRef.marketplace("Ubuntu 22.04",
            "canonical:0001-com-ubuntu-server-jammy:22_04-lts:latest");
    private static final ImageRef UBUNTU_HPC = ImageRef.marketplace("Ubuntu HPC", "microsoft-dsvm:ubuntu-hpc:2204:latest");
    private static final ImageRef FOCAL = ImageRef.marketplace("Ubuntu 20.04",
            "canonical:0001-com-ubuntu-server-focal:20_04-lts:latest");
    private static final String AGENT = "batch.node.ubuntu 22.04";
    private static final VmSize D2 = new VmSize("Standard_D2s_v5", "D", 2, 8, Optional.empty(), false,
            Architecture.X64, Set.of("V2"));
    private static final VmSize NC24 = new VmSize("Standard_NC24ads_A100_v4", "NC", 24, 220,
            Optional.of(new GpuSpec("A100-80GB", 1, 80, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    private static final String IDENTITY = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/ml/providers/"
            + "Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";

    private final BatchFake fake = new BatchFake(new BatchFakeOptions().auth(true, false));
    private final BatchConnection connection = FakeAccounts.sharedKey(fake);
    private final ArmFake arm = new ArmFake();
    private final BatchManagement management = new BatchManagement(arm.connector());
    @TempDir
    Path state;

    PlanCheckTest() throws Exception {
    }

    @AfterEach
    void close() {
        connection.close();
        fake.close();
        arm.close();
    }

    private PlanCheck check(BatchAccountSettings account, List<ExistingPool> existing, Optional<String> identity,
            Optional<String> container) {
        BatchSettings settings = FakeAccounts.settings(List.of(account), existing, identity, container,
                Duration.ofHours(1), Duration.ofDays(7));
        SupportedImages images = SupportedImages.of(state, account.url().getHost(), Clock.systemUTC(),
                FakeAccounts.calls(connection));
        ResourceSkusClient compute = ResourceSkusClient.of(arm.connector(), ArmFake.SUBSCRIPTION);
        return new PlanCheck(settings, configured -> new AccountReads(configured, FakeAccounts.calls(connection),
                Optional.of(management), images, compute::usages), Clock.systemUTC());
    }

    private PlanCheck sharedKey() {
        return check(FakeAccounts.account(fake, BatchAuth.SHARED_KEY, Optional.empty()), List.of(), Optional.empty(),
                Optional.empty());
    }

    private BatchAccountModel armAccount(PoolAllocationMode mode) {
        BatchAccountModel model = arm.batchAccount("ml", "gantryfake", FakeAccounts.REGION, mode);
        arm.batchVmSkus(FakeAccounts.REGION, ArmFake.batchVmSku("Standard_D2s_v5", "standardDSv5Family", 2, true),
                ArmFake.batchVmSku("Standard_NC24ads_A100_v4", "StandardNCADSA100v4Family", 24, false));
        return model;
    }

    private PlanCheck withResourceId(BatchAccountModel model, BatchAuth auth) {
        return check(FakeAccounts.account(fake, auth, Optional.of(model.resourceId())), List.of(), Optional.empty(),
                Optional.empty());
    }

    private static Workload.Builder workload() {
        return Workload.builder("train").phase(Phase.TRAINING).model(ModelClass.SMALL)
                .resources(Resources.builder().vcpus(2)).command("python3", "train.py");
    }

    private static Plan plan(Workload workload, VmSize size, ImageRef image, int nodes, boolean spot) {
        return Plan.builder(workload, size).region(FakeAccounts.REGION).nodes(nodes).spot(spot).image(image)
                .boot(new NodeBoot(Optional.empty(), Optional.of(AGENT))).build();
    }

    private static Plan plan(Workload workload) {
        return plan(workload, D2, UBUNTU, 1, false);
    }

    private static Problem only(List<Problem> problems, String path) {
        List<Problem> found = problems.stream().filter(p -> p.path().equals(path)).toList();
        assertEquals(1, found.size(), problems.toString());
        return found.get(0);
    }

    @Test
    void aPlainPlanOnASupportedImagePassesAndSaysWhatItCouldNotCheck() {
        PlanCheck.Findings findings = sharedKey().check(plan(workload().build()));
        assertEquals(List.of(), findings.problems());
        Problem unchecked = only(findings.warnings(), PlanCheck.RESOURCE_ID);
        assertTrue(unchecked.message().contains("Standard_D2s_v5") && unchecked.message().contains("not checked"),
                unchecked.message());
    }

    @Test
    void aRegionWithoutAnAccountIsNamed() {
        Plan plan = Plan.builder(workload().build(), D2).region("westus2").image(UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of(AGENT))).build();
        Problem problem = only(sharedKey().check(plan).problems(), PlanCheck.ACCOUNTS);
        assertTrue(problem.message().contains("'westus2'") && problem.message().contains("[eastus]"),
                problem.message());
    }

    @Test
    void anUnsupportedImageAndAgentPairIsAProblemAndAnImagePastItsEndOfLifeAWarning() {
        Plan wrongAgent = Plan.builder(workload().build(), D2).region(FakeAccounts.REGION).image(UBUNTU)
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 20.04"))).build();
        Problem pair = only(sharedKey().check(wrongAgent).problems(), "image");
        assertTrue(pair.message().contains("[batch.node.ubuntu 22.04]"), pair.message());

        Plan old = Plan.builder(workload().build(), D2).region(FakeAccounts.REGION).image(FOCAL)
                .boot(new NodeBoot(Optional.empty(), Optional.of("batch.node.ubuntu 20.04"))).build();
        PlanCheck.Findings findings = sharedKey().check(old);
        assertEquals(List.of(), findings.problems());
        assertTrue(only(findings.warnings(), "image").message().contains("batchSupportEndOfLife"));
    }

    @Test
    void anImageBatchDoesNotListIsRefused() {
        fake.supportedImages(List.of());
        Problem problem = only(sharedKey().check(plan(workload().build())).problems(), "image");
        assertTrue(problem.message().contains("supported-images"), problem.message());
    }

    @Test
    void nvidiaGpusNeedAnImageWithTheDriver() {
        // The fake's list: jammy with Docker only; ubuntu-hpc with Docker and the NVIDIA driver.
        PlanCheck check = sharedKey();
        Plan gpuOnPlainUbuntu = plan(workload().container("nvcr.io/nvidia/pytorch:24.05-py3").build(), NC24, UBUNTU,
                1, false);
        PlanCheck.Findings findings = check.check(gpuOnPlainUbuntu);
        assertTrue(only(findings.problems(), "resources.gpus").message().contains("NvidiaTeslaDriverInstalled"));
        assertEquals(1, findings.problems().size(), "jammy is DockerCompatible: " + findings.problems());
        assertEquals(List.of(), check.check(plan(workload().build(), NC24, UBUNTU_HPC, 1, false)).problems());
    }

    @Test
    void theSupportedImagesAreListedOnceADay() {
        SupportedImages today = SupportedImages.of(state, "acct", Clock.systemUTC(), FakeAccounts.calls(connection));
        int before = fake.count("Account_ListSupportedImages");
        assertEquals(3, today.get().size());
        assertEquals(3, SupportedImages.of(state, "acct", Clock.systemUTC(), FakeAccounts.calls(connection)).get().size());
        assertEquals(before + 1, fake.count("Account_ListSupportedImages"), "the second read came from the cache");
        Clock tomorrow = Clock.offset(Clock.systemUTC(), Duration.ofDays(1).plusMinutes(1));
        assertEquals(3, SupportedImages.of(state, "acct", tomorrow, FakeAccounts.calls(connection)).get().size());
        assertEquals(before + 2, fake.count("Account_ListSupportedImages"), "a day later Batch is asked again");
    }

    @Test
    void aContainerOnAnImageWithoutDockerIsRefused() {
        fake.supportedImages(List.of(image("batch.node.ubuntu 22.04", "canonical", "0001-com-ubuntu-server-jammy",
                "22_04-lts")));
        Problem problem = only(sharedKey().check(plan(workload().container("busybox").build())).problems(),
                "container");
        assertTrue(problem.message().contains("DockerCompatible"), problem.message());
    }

    private static com.fasterxml.jackson.databind.node.ObjectNode image(String agent, String publisher, String offer,
            String sku) {
        com.fasterxml.jackson.databind.node.ObjectNode image = new com.fasterxml.jackson.databind.ObjectMapper()
                .createObjectNode().put("nodeAgentSKUId", agent).put("osType", "linux")
                .put("verificationType", "verified");
        image.putObject("imageReference").put("publisher", publisher).put("offer", offer).put("sku", sku)
                .put("version", "latest");
        image.putArray("capabilities");
        return image;
    }

    @Test
    void spotIsRefusedWhereTheAccountCannotHaveIt() {
        Problem sharedKey = only(sharedKey().check(plan(workload().build(), D2, UBUNTU, 1, true)).problems(), "spot");
        assertTrue(sharedKey.message().contains("30 September 2025"), sharedKey.message());

        BatchAccountModel managed = armAccount(PoolAllocationMode.BATCH_SERVICE);
        Problem batchService = only(withResourceId(managed, BatchAuth.ENTRA)
                .check(plan(workload().build(), D2, UBUNTU, 1, true)).problems(), "spot");
        assertTrue(batchService.message().contains("BatchService"), batchService.message());
    }

    @Test
    void spotOnAUserSubscriptionAccountPassesWhereTheSizeHasSpotCapacity() {
        BatchAccountModel user = armAccount(PoolAllocationMode.USER_SUBSCRIPTION);
        arm.usages(FakeAccounts.REGION, "[" + ArmFake.usage("lowPriorityCores", "Total Spot vCPUs", 0, 100) + "]");
        PlanCheck check = withResourceId(user, BatchAuth.ENTRA);
        PlanCheck.Findings findings = check.check(plan(workload().build(), D2, UBUNTU, 2, true));
        assertEquals(List.of(), findings.problems());
        assertEquals(List.of(), findings.warnings(), "with resourceId everything was checked");

        Problem noSpotCapacity = only(check.check(plan(workload().build(), NC24, UBUNTU_HPC, 1, true)).problems(),
                "spot");
        assertTrue(noSpotCapacity.message().contains("no Spot (low-priority) capacity"), noSpotCapacity.message());
    }

    @Test
    void secretsNeedAPoolIdentityAndTheContainer() {
        Workload secret = workload().secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN")).build();
        Problem problem = only(sharedKey().check(plan(secret)).problems(), "secrets");
        assertTrue(problem.message().contains("poolIdentity") && problem.message().contains("secrets.containerUrl")
                && problem.message().contains("[HF_TOKEN]"), problem.message());

        BatchAccountModel user = armAccount(PoolAllocationMode.USER_SUBSCRIPTION);
        PlanCheck configured = check(FakeAccounts.account(fake, BatchAuth.ENTRA, Optional.of(user.resourceId())),
                List.of(), Optional.of(IDENTITY), Optional.of("https://gantrysecrets.blob.core.windows.net/secrets"));
        assertEquals(List.of(), configured.check(plan(secret)).problems());

        PlanCheck identityWithoutResourceId = check(FakeAccounts.account(fake, BatchAuth.ENTRA, Optional.empty()),
                List.of(), Optional.of(IDENTITY), Optional.of("https://gantrysecrets.blob.core.windows.net/secrets"));
        assertTrue(only(identityWithoutResourceId.check(plan(secret)).problems(), PlanCheck.RESOURCE_ID).message()
                .contains("created through Resource Manager"));
    }

    @Test
    void anExistingPoolMustCarryAnIdentityForSecrets() {
        FakeAccounts.addPool(connection.protocol(), "team-pool", false);
        Workload secret = workload().secret("HF_TOKEN", SecretRef.parse("env:HF_TOKEN")).build();
        String container = "https://gantrysecrets.blob.core.windows.net/secrets";
        PlanCheck check = check(FakeAccounts.account(fake, BatchAuth.SHARED_KEY, Optional.empty()),
                List.of(new ExistingPool("Standard_D2s_v5", "team-pool")), Optional.empty(), Optional.of(container));
        Problem problem = only(check.check(plan(secret)).problems(), "secrets");
        assertTrue(problem.message().contains("existing pool team-pool, which has no user-assigned identity"),
                problem.message());

        fake.addPoolIdentity("team-pool", IDENTITY);
        PlanCheck again = check(FakeAccounts.account(fake, BatchAuth.SHARED_KEY, Optional.empty()),
                List.of(new ExistingPool("Standard_D2s_v5", "team-pool")), Optional.empty(), Optional.of(container));
        assertEquals(List.of(), again.check(plan(secret)).problems());
    }

    @Test
    void aSizeBatchDoesNotOfferAndCoresBeyondTheAccountsQuotaAreProblems() {
        BatchAccountModel managed = armAccount(PoolAllocationMode.BATCH_SERVICE);
        managed.dedicatedCoreQuota(40);
        PlanCheck check = withResourceId(managed, BatchAuth.SHARED_KEY);
        VmSize unknown = new VmSize("Standard_HB120rs_v3", "HB", 120, 456, Optional.empty(), true, Architecture.X64,
                Set.of("V2"));
        Problem notOffered = only(check.check(plan(workload().build(), unknown, UBUNTU, 1, false)).problems(),
                "vmSize");
        assertTrue(notOffered.message().contains("not offered to Batch in eastus"), notOffered.message());

        assertEquals(List.of(), check.check(plan(workload().build(), NC24, UBUNTU_HPC, 1, false)).problems());
        Problem quota = only(check.check(plan(workload().build(), NC24, UBUNTU_HPC, 2, false)).problems(),
                "resources.nodes");
        assertTrue(quota.message().contains("48 cores") && quota.message().contains("dedicatedCoreQuota of 40"),
                quota.message());
    }

    @Test
    void aUserSubscriptionAccountIsCheckedAgainstTheSubscriptionsFamilyUsage() {
        BatchAccountModel user = armAccount(PoolAllocationMode.USER_SUBSCRIPTION);
        arm.usages(FakeAccounts.REGION, "[" + ArmFake.usage("cores", "Total Regional vCPUs", 10, 350) + ","
                + ArmFake.usage("StandardNCADSA100v4Family", "Standard NCADS A100 v4 Family vCPUs", 24, 48) + "]");
        PlanCheck check = withResourceId(user, BatchAuth.ENTRA);
        assertEquals(List.of(), check.check(plan(workload().build(), NC24, UBUNTU_HPC, 1, false)).problems());
        Problem family = only(check.check(plan(workload().build(), NC24, UBUNTU_HPC, 2, false)).problems(),
                "resources.nodes");
        assertTrue(family.message().contains("StandardNCADSA100v4Family") && family.message().contains("24 of 48"),
                family.message());
    }

    @Test
    void aServingWorkloadIsWarnedOfBatchsTaskLifetime() {
        Workload serve = workload().phase(Phase.INFERENCE).build();
        PlanCheck.Findings findings = sharedKey().check(plan(serve));
        assertEquals(List.of(), findings.problems());
        assertTrue(only(findings.warnings(), "phase").message().contains("180 days"));
        Workload scoring = workload().phase(Phase.INFERENCE).estimate(new RuntimeEstimate(2, "D2s_v5")).build();
        assertTrue(sharedKey().check(plan(scoring)).warnings().stream().noneMatch(p -> p.path().equals("phase")));
    }
}
