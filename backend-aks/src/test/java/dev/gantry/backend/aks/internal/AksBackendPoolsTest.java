package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.azure.aks.AgentPools;
import dev.gantry.azure.aks.PoolName;
import dev.gantry.azure.aks.Priority;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.backend.aks.AksBackendProvider;
import dev.gantry.backend.aks.internal.pools.AzurePoolKeeper;
import dev.gantry.backend.aks.internal.render.Placement;
import io.fabric8.kubernetes.api.model.batch.v1.Job;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Node pools Gantry keeps ({@code backends.aks.azure.*}): the backend against Fabric8's mock API server and the
 * Azure module's HTTPS {@link ArmFake}, which serves AKS agent pools through the real SDK pipeline.
 */
class AksBackendPoolsTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String GROUP = "rg-aks";
    private static final String CLUSTER = "aks1";
    private static final String SPOT_T4 = PoolName.of(MockCluster.T4.name(), Priority.SPOT);

    @TempDir
    Path home;
    @TempDir
    Path state;
    private MockCluster cluster;
    private ArmFake arm;

    @BeforeEach
    void start() throws Exception {
        cluster = new MockCluster(home);
        arm = new ArmFake();
        arm.managedCluster(GROUP, CLUSTER, "eastus", "1.32.6");
    }

    @AfterEach
    void stop() {
        arm.close();
        cluster.close();
    }

    private Backend backend(String clusterName, String... moreKeysAndValues) {
        List<String> keysAndValues = new ArrayList<>(List.of("azure.subscription", ArmFake.SUBSCRIPTION,
                "azure.resourceGroup", GROUP, "azure.cluster", clusterName, "azure.maxNodes", "4"));
        keysAndValues.addAll(List.of(moreKeysAndValues));
        return cluster.backend(state, settings -> new AzurePoolKeeper(settings,
                () -> AgentPools.connect(arm.connector(), ArmFake.SUBSCRIPTION), System.getLogger("aks-test")),
                keysAndValues.toArray(String[]::new));
    }

    private static Plan spotGpu(String name) {
        Workload workload = Workload.builder(name).phase(Phase.INFERENCE).model(ModelClass.SMALL)
                .command("python3", "serve.py").build();
        return Plan.builder(workload, MockCluster.T4).spot(true).build();
    }

    @Test
    void aSpotGpuPlanCreatesOnePoolForTenJobsWithTheBodyGantryPoolsHave() throws Exception {
        try (Backend backend = backend(CLUSTER)) {
            List<Submission> submissions = new ArrayList<>();
            for (int i = 0; i < 10; i++) {
                submissions.add(new Submission(spotGpu("serve"), SubmitOptions.withKey("serve-" + i)));
            }
            List<JobRef> refs = backend.submitAll(submissions);
            backend.submit(spotGpu("serve"), SubmitOptions.withKey("serve-10")); // later: the pool is known

            assertEquals(List.of("GET", "PUT"), arm.requests().stream().map(ArmFake.Request::method).toList(),
                    "one lookup and one creation for eleven jobs: " + arm.requests());
            ArmFake.Request put = arm.requests("PUT", "/agentPools/" + SPOT_T4).get(0);
            assertEquals("*", put.headers().get("if-none-match"), "a creation never overwrites a pool");
            assertEquals(JSON.readTree("""
                    {"vmSize":"Standard_NC4as_T4_v3","osType":"Linux","mode":"User","count":0,
                     "enableAutoScaling":true,"minCount":0,"maxCount":4,"scaleSetPriority":"Spot",
                     "scaleSetEvictionPolicy":"Delete","spotMaxPrice":-1.0,"nodeTaints":["sku=gpu:NoSchedule"],
                     "tags":{"gantry:managed":"true"}}"""), put.body().path("properties"));
            assertEquals(10, refs.size());
            for (JobRef ref : refs) {
                Job job = cluster.job(ref.id());
                assertEquals(Map.of(Placement.INSTANCE_TYPE, MockCluster.T4.name(), Placement.AGENT_POOL, SPOT_T4),
                        job.getSpec().getTemplate().getSpec().getNodeSelector());
                assertEquals(SPOT_T4, job.getMetadata().getAnnotations().get(Placement.NEW_NODE_POOL));
            }
        }
    }

    @Test
    void aPendingJobSaysItsPoolIsBeingCreatedUntilItsRankIsPlaced() throws InterruptedException {
        try (Backend backend = backend(CLUSTER)) {
            JobRef ref = backend.submit(spotGpu("serve"), SubmitOptions.withKey("serve-1"));

            JobStatus pending = backend.status(ref);
            assertEquals(JobState.PENDING, pending.state());
            assertEquals("node pool " + SPOT_T4 + " being created", pending.message());

            arm.completeOperations();
            cluster.pod(ref.id(), 0, "Running"); // a node of the pool joined and took the rank
            assertEquals(JobState.RUNNING, AksBackendStatusTest.await(backend, ref,
                    status -> status.state() == JobState.RUNNING).state());
        }
    }

    @Test
    void aPoolOfThatNameGantryDidNotCreateIsUsedUntouched() {
        String name = PoolName.of(MockCluster.SMALL.name(), Priority.REGULAR);
        ObjectNode foreign = JSON.createObjectNode().put("name", name);
        foreign.putObject("properties").put("vmSize", MockCluster.SMALL.name()).put("count", 2).put("mode", "User")
                .put("provisioningState", "Succeeded").putObject("tags").put("team", "ml");
        arm.seedAgentPool(GROUP, CLUSTER, foreign);
        ObjectNode before = arm.agentPool(GROUP, CLUSTER, name).orElseThrow();

        try (Backend backend = backend(CLUSTER)) {
            JobRef ref = backend.submit(MockCluster.plan("hello", 1), SubmitOptions.withKey("hello-1"));

            assertEquals(List.of("GET"), arm.requests().stream().map(ArmFake.Request::method).toList());
            assertEquals(before, arm.agentPool(GROUP, CLUSTER, name).orElseThrow(), "the pool was not touched");
            Job job = cluster.job(ref.id());
            assertEquals(name, job.getSpec().getTemplate().getSpec().getNodeSelector().get(Placement.AGENT_POOL));
            assertNull(job.getMetadata().getAnnotations().get(Placement.NEW_NODE_POOL), "its nodes are there");
        }
    }

    @Test
    void aSizeThatNodePoolsListsGoesToThatPoolAndGantryMakesNone() {
        try (Backend backend = backend(CLUSTER, "nodePools", MockCluster.SMALL.name() + "=cpupool")) {
            JobRef ref = backend.submit(MockCluster.plan("hello", 1), SubmitOptions.withKey("hello-1"));

            assertEquals(List.of(), arm.requests(), "Azure is not asked");
            assertEquals("cpupool", cluster.job(ref.id()).getSpec().getTemplate().getSpec().getNodeSelector()
                    .get(Placement.AGENT_POOL));
        }
    }

    @Test
    void aForeignPoolOfThatNameWithAnotherSizeIsRefusedAndNothingSubmitted() {
        String name = PoolName.of(MockCluster.SMALL.name(), Priority.REGULAR);
        ObjectNode foreign = JSON.createObjectNode().put("name", name);
        foreign.putObject("properties").put("vmSize", "Standard_D4s_v5").put("count", 2)
                .put("provisioningState", "Succeeded");
        arm.seedAgentPool(GROUP, CLUSTER, foreign);

        try (Backend backend = backend(CLUSTER)) {
            GantryException e = assertThrows(GantryException.class,
                    () -> backend.submit(MockCluster.plan("hello", 1), SubmitOptions.withKey("hello-1")));

            assertEquals(ErrorCode.PLAN_REJECTED, e.code());
            assertTrue(e.getMessage().startsWith("node pool " + name + " of AKS cluster rg-aks/aks1 has "
                    + "Standard_D4s_v5 regular VMs, not the plan's tck-small regular;"), e.getMessage());
            assertEquals(List.of(), cluster.controller.batch().v1().jobs().list().getItems());
        }
    }

    @Test
    void aMissingClusterNamesTheSettingsAndNothingIsSubmitted() {
        try (Backend backend = backend("nope")) {
            GantryException e = assertThrows(GantryException.class, () -> backend.submitAll(List.of(
                    new Submission(MockCluster.plan("hello", 1), SubmitOptions.withKey("hello-1")),
                    new Submission(spotGpu("serve"), SubmitOptions.withKey("serve-1")))));

            assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
            assertTrue(e.getMessage().startsWith("AKS cluster nope was not found in resource group rg-aks of "
                    + "subscription " + ArmFake.SUBSCRIPTION + " (backends.aks.azure.subscription "
                    + ArmFake.SUBSCRIPTION + ", azure.resourceGroup rg-aks, azure.cluster nope): Azure answered 404 "
                    + "ParentResourceNotFound"), e.getMessage());
            assertTrue(e.getMessage().endsWith("az aks list --subscription " + ArmFake.SUBSCRIPTION + " -o table "
                    + "lists the clusters the signed-in identity can see)"), e.getMessage());
            assertEquals(List.of(), cluster.controller.batch().v1().jobs().list().getItems());
        }
    }

    @Test
    void anIdentityThatMayNotCreatePoolsIsToldTheRoleAndTheSettings() {
        arm.denyWrites("/agentPools/" + SPOT_T4);

        try (Backend backend = backend(CLUSTER)) {
            GantryException e = assertThrows(GantryException.class,
                    () -> backend.submit(spotGpu("serve"), SubmitOptions.withKey("serve-1")));

            assertEquals(ErrorCode.AUTH_FAILED, e.code());
            assertTrue(e.getMessage().startsWith("backends.aks.azure.subscription " + ArmFake.SUBSCRIPTION
                    + ", azure.resourceGroup rg-aks, azure.cluster aks1: the signed-in identity may not do this "
                    + "while creating node pool " + SPOT_T4), e.getMessage());
            assertTrue(e.getMessage().endsWith("Grant it the Azure Kubernetes Service Contributor Role on the "
                    + "cluster."), e.getMessage());
        }
    }

    /**
     * A program without the Azure module (an optional dependency): the backend is created without {@code azure.*},
     * and with it the create fails naming the artifact to add, not with a NoClassDefFoundError.
     */
    @Test
    void withoutTheAzureModuleAzureSettingsFailAtCreateNamingTheArtifact() throws Exception {
        List<String> classPath = Arrays.asList(System.getProperty("java.class.path").split(File.pathSeparator));
        List<String> withoutAzure = classPath.stream().filter(entry -> !azure(entry)).toList();
        assertTrue(withoutAzure.size() > 3 && withoutAzure.size() < classPath.size(),
                "surefire must expose the test class path, with the Azure module on it: " + classPath);
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", String.join(File.pathSeparator, withoutAzure),
                CreateWithoutTheAzureModule.class.getName(), cluster.kubeconfig().toString(), state.toString())
                .redirectError(home.resolve("stderr.txt").toFile()).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

        assertEquals(0, process.waitFor(), output + Files.readString(home.resolve("stderr.txt")));
        assertEquals("""
                created without azure settings
                USAGE: backends.aks.azure.* asks Gantry to create node pools, which needs the Azure module, and it is \
                not on the class path: add the dependency dev.gantry:gantry-azure (the same version as \
                gantry-backend-aks; the gantry BOM manages it) to your build, or remove the backends.aks.azure \
                settings to use existing node pools only
                """, output);
    }

    /** The Azure module's classes (in the reactor or as a jar) and the Azure SDK's jars. */
    private static boolean azure(String entry) {
        String path = entry.replace(File.separatorChar, '/');
        return path.contains("gantry-azure") || path.contains("/azure/target/") || path.contains("/com/azure/");
    }

    /** Creates the backend twice, without and with azure.*, in a JVM whose class path lacks the Azure module. */
    static final class CreateWithoutTheAzureModule {
        public static void main(String[] args) {
            Map<String, String> values = new HashMap<>(Map.of("namespace", MockCluster.NAMESPACE, "kubeconfig",
                    args[0]));
            BackendContext context = new BackendContext() {
                @Override
                public Path stateDirectory() {
                    return Path.of(args[1]);
                }

                @Override
                public SecretResolver secrets() {
                    return ref -> new Secret("unused");
                }
            };
            try (Backend backend = new AksBackendProvider().create(new BackendConfig("aks", values), context)) {
                System.out.println("created without azure settings");
            }
            values.putAll(Map.of("azure.subscription", "11111111-2222-3333-4444-555555555555",
                    "azure.resourceGroup", GROUP, "azure.cluster", CLUSTER, "azure.maxNodes", "4"));
            try (Backend backend = new AksBackendProvider().create(new BackendConfig("aks", values), context)) {
                System.out.println("created with azure settings");
            } catch (GantryException e) {
                System.out.println(e.code() + ": " + e.getMessage());
            }
        }
    }
}
