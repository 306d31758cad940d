package dev.gantry.azure.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.ArmFake;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** {@link AgentPools} against the HTTPS {@link ArmFake}, through the real SDK pipeline (bearer token, pollers, paging). */
class AgentPoolsTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final AksCluster CLUSTER = new AksCluster("rg-aks", "aks1");
    static final String A100 = "Standard_NC24ads_A100_v4";
    static final String D4 = "Standard_D4s_v5";

    ArmFake arm;
    AgentPools pools;

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        arm.managedCluster(CLUSTER.resourceGroup(), CLUSTER.name(), "eastus", "1.32.6");
        pools = AgentPools.connect(arm.connector(), ArmFake.SUBSCRIPTION);
    }

    @AfterEach
    void stop() {
        arm.close();
    }

    static PoolRequest spotGpu(int maxNodes) {
        return new PoolRequest(PoolName.of(A100, Priority.SPOT), A100, Priority.SPOT, List.of("sku=gpu:NoSchedule"),
                maxNodes);
    }

    @Test
    void aSpotGpuPoolIsStartedWithOnePutAndNotWaitedFor() throws Exception {
        PoolRequest request = spotGpu(4);

        AgentPool pool = pools.beginCreate(CLUSTER, request);

        assertEquals(new AgentPool(request.name(), A100, Priority.SPOT, 0, true, OptionalInt.of(0), OptionalInt.of(4),
                List.of("sku=gpu:NoSchedule"), Map.of(AgentPools.MANAGED_TAG, "true"), "Creating",
                Optional.of("Running")), pool);
        assertTrue(pool.managedByGantry());
        List<ArmFake.Request> sent = arm.requests();
        assertEquals(1, sent.size(), "one PUT, no poll of its operation: " + sent);
        assertTrue(sent.get(0).is("PUT", "/managedClusters/aks1/agentPools/" + request.name()));
        assertEquals("*", sent.get(0).headers().get("if-none-match"), "a creation never overwrites a pool");
        assertEquals(JSON.readTree("""
                {"vmSize":"Standard_NC24ads_A100_v4","osType":"Linux","mode":"User","count":0,
                 "enableAutoScaling":true,"minCount":0,"maxCount":4,"scaleSetPriority":"Spot",
                 "scaleSetEvictionPolicy":"Delete","spotMaxPrice":-1.0,"nodeTaints":["sku=gpu:NoSchedule"],
                 "tags":{"gantry:managed":"true"}}"""), sent.get(0).body().path("properties"));
        assertEquals("Creating", provisioningState(request.name()), "Azure goes on creating it");

        arm.completeOperations();

        assertEquals("Succeeded", pools.find(CLUSTER, request.name()).orElseThrow().provisioningState());
    }

    @Test
    void aRegularCpuPoolHasNoSpotSettingsAndNoTaint() throws Exception {
        PoolRequest request = new PoolRequest(PoolName.of(D4, Priority.REGULAR), D4, Priority.REGULAR, List.of(), 10);

        AgentPool pool = pools.beginCreate(CLUSTER, request);

        assertEquals(Priority.REGULAR, pool.priority());
        assertEquals(List.of(), pool.nodeTaints());
        assertEquals(OptionalInt.of(10), pool.maxNodes());
        JsonNode properties = arm.requests("PUT", request.name()).get(0).body().path("properties");
        assertEquals("Regular", properties.path("scaleSetPriority").asText());
        for (String absent : List.of("scaleSetEvictionPolicy", "spotMaxPrice", "nodeTaints")) {
            assertFalse(properties.has(absent), absent + " is for Spot or GPU pools only: " + properties);
        }
    }

    @Test
    void aPoolTheClusterLacksIsEmptyButAMissingClusterIsAnError() {
        assertEquals(Optional.empty(), pools.find(CLUSTER, "gmissing0000"));

        GantryException e = assertThrows(GantryException.class,
                () -> pools.find(new AksCluster("rg-aks", "nope"), "gmissing0000"));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("AKS cluster rg-aks/nope") && e.getMessage().contains("ParentResourceNotFound")
                && e.getMessage().contains("Parent resource 'nope' not found"), e.getMessage());
    }

    @Test
    void onlyPoolsTaggedByGantryAreListed() {
        arm.seedAgentPool("rg-aks", "aks1", pool("nodepool1", Map.of()));
        arm.seedAgentPool("rg-aks", "aks1", pool("mlpool", Map.of(AgentPools.MANAGED_TAG, "false", "team", "ml")));
        String spot = pools.beginCreate(CLUSTER, spotGpu(2)).name();
        String regular = pools.beginCreate(CLUSTER,
                new PoolRequest(PoolName.of(D4, Priority.REGULAR), D4, Priority.REGULAR, List.of(), 3)).name();

        List<AgentPool> managed = pools.managedByGantry(CLUSTER);

        assertEquals(List.of(spot, regular), managed.stream().map(AgentPool::name).toList());
        assertEquals(2, arm.requests("GET", "/agentPools").size(), "four pools, two pages joined by nextLink");
    }

    @Test
    void aPoolOfThatNameWhichGantryDidNotCreateIsAnsweredUnchanged() {
        String name = PoolName.of(D4, Priority.REGULAR);
        arm.seedAgentPool("rg-aks", "aks1", pool(name, Map.of("team", "ml")));
        ObjectNode before = arm.agentPool("rg-aks", "aks1", name).orElseThrow();

        AgentPool answered = pools.beginCreate(CLUSTER,
                new PoolRequest(name, D4, Priority.REGULAR, List.of(), 3));

        assertFalse(answered.managedByGantry());
        assertEquals(5, answered.nodes());
        assertEquals(before, arm.agentPool("rg-aks", "aks1", name).orElseThrow(), "the pool was not touched");
        assertEquals(List.of("PUT", "GET"), arm.requests().stream().map(ArmFake.Request::method).toList(),
                "the PUT was refused (412), then the pool read");
    }

    @Test
    void aCreationAzureRefusesSaysWhatWasBeingDone() {
        GantryException e = assertThrows(GantryException.class,
                () -> pools.beginCreate(new AksCluster("rg-aks", "nope"), spotGpu(4)));

        assertTrue(e.getMessage().startsWith("Azure answered 404 ParentResourceNotFound while creating node pool "
                + PoolName.of(A100, Priority.SPOT) + " (" + A100 + ", Spot) in AKS cluster rg-aks/nope"),
                e.getMessage());
    }

    @Test
    void refusedCredentialsNameTheAksCallAndTheFix() {
        AgentPools stranger = AgentPools.connect(arm.connector(request -> reactor.core.publisher.Mono.just(
                new com.azure.core.credential.AccessToken("someone-else",
                        java.time.OffsetDateTime.now().plusHours(1)))), ArmFake.SUBSCRIPTION);

        GantryException e = assertThrows(GantryException.class, () -> stranger.managedByGantry(CLUSTER));

        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().contains("listing the node pools of AKS cluster rg-aks/aks1")
                && e.getMessage().contains("az login"), e.getMessage());
    }

    @Test
    void anIdentityThatMayNotCreatePoolsIsToldWhichRoleToGet() {
        arm.denyWrites("/agentPools/" + PoolName.of(A100, Priority.SPOT));

        GantryException e = assertThrows(GantryException.class, () -> pools.beginCreate(CLUSTER, spotGpu(4)));

        assertEquals(ErrorCode.AUTH_FAILED, e.code());
        assertTrue(e.getMessage().endsWith("Grant it the Azure Kubernetes Service Contributor Role on the cluster."),
                e.getMessage());
    }

    @Test
    void aComputeOnlyConnectorSaysHowToReachAks() {
        dev.gantry.azure.arm.ArmConnector computeOnly = subscription -> arm.connector().connect(subscription);

        UnsupportedOperationException e = assertThrows(UnsupportedOperationException.class,
                () -> AgentPools.connect(computeOnly, ArmFake.SUBSCRIPTION));

        assertTrue(e.getMessage().contains("ArmConnector.of(credential, environment, httpClient)"), e.getMessage());
    }

    private String provisioningState(String name) {
        return arm.agentPool("rg-aks", "aks1", name).orElseThrow().path("properties").path("provisioningState")
                .asText();
    }

    /** A pool made outside Gantry: five regular D4 nodes. */
    static ObjectNode pool(String name, Map<String, String> tags) {
        ObjectNode pool = JSON.createObjectNode().put("name", name);
        ObjectNode properties = pool.putObject("properties").put("vmSize", D4).put("count", 5).put("mode", "User")
                .put("provisioningState", "Succeeded");
        tags.forEach(properties.putObject("tags")::put);
        return pool;
    }
}
