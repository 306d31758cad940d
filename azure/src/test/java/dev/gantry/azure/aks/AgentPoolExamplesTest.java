package dev.gantry.azure.aks;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.azure.core.http.rest.Response;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.util.FluxUtil;
import com.azure.core.util.polling.LongRunningOperationStatus;
import com.azure.core.util.polling.SyncPoller;
import com.azure.json.JsonProviders;
import com.azure.json.JsonReader;
import com.azure.resourcemanager.containerservice.fluent.AgentPoolsClient;
import com.azure.resourcemanager.containerservice.fluent.models.AgentPoolInner;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.azure.fakes.ArmFake;
import java.io.IOException;
import java.io.InputStream;
import java.nio.ByteBuffer;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;

/**
 * The published AKS examples (test resources {@code azure-rest/containerservice/}, copied unchanged from the Azure REST
 * API specs): their responses read through {@link AgentPools}, and {@code AgentPoolsCreate_Spot}'s request sent to
 * the {@link ArmFake}, whose answers must hold every field the example's answers hold.
 */
class AgentPoolExamplesTest {
    static final ObjectMapper JSON = new ObjectMapper();
    static final AksCluster CLUSTER = new AksCluster("rg1", "clustername1");

    ArmFake arm;

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        arm.managedCluster(CLUSTER.resourceGroup(), CLUSTER.name(), "eastus", "1.9.6");
    }

    @AfterEach
    void stop() {
        arm.close();
    }

    static JsonNode example(String name) throws IOException {
        try (InputStream in = AgentPoolExamplesTest.class.getResourceAsStream(
                "/azure-rest/containerservice/aks/2025-09-01/examples/" + name)) {
            return JSON.readTree(in);
        }
    }

    AgentPoolsClient sdk() {
        return arm.connector().containerService(ArmFake.SUBSCRIPTION).serviceClient().getAgentPools();
    }

    @Test
    void theGetExampleReadsAsARegularPoolOfThreeNodesThatGantryDidNotCreate() throws Exception {
        arm.replay("/agentPools/agentpool1", example("AgentPoolsGet.json").at("/responses/200/body").toString());

        AgentPool pool = AgentPools.connect(arm.connector(), ArmFake.SUBSCRIPTION).find(CLUSTER, "agentpool1")
                .orElseThrow();

        assertEquals(new AgentPool("agentpool1", "Standard_DS1_v2", Priority.REGULAR, 3, false, OptionalInt.empty(),
                OptionalInt.empty(), List.of(), Map.of(), "Succeeded", Optional.empty()), pool);
    }

    @Test
    void theListExampleHoldsNoPoolOfGantrys() throws Exception {
        arm.replay("/agentPools", example("AgentPoolsList.json").at("/responses/200/body").toString());

        assertEquals(List.of(), AgentPools.connect(arm.connector(), ArmFake.SUBSCRIPTION).managedByGantry(CLUSTER));
        assertEquals(1, arm.requests("GET", "/agentPools").size());
    }

    @Test
    void theSpotCreationIsAnsweredAsTheExampleSays() throws Exception {
        JsonNode spot = example("AgentPoolsCreate_Spot.json");

        Response<Flux<ByteBuffer>> created = sdk().createOrUpdateWithResponseAsync(CLUSTER.resourceGroup(),
                CLUSTER.name(), "agentpool1", request(spot), null, null).block();

        assertEquals(201, created.getStatusCode());
        assertTrue(created.getHeaders().getValue("Azure-AsyncOperation").contains("/operations/"));
        assertHolds(spot.at("/responses/201/body"),
                JSON.readTree(FluxUtil.collectBytesInByteBufferStream(created.getValue()).block()), "");
    }

    @Test
    void theSpotCreationEndsAsTheExampleSaysOnceTheSdkFollowsItsOperation() throws Exception {
        JsonNode spot = example("AgentPoolsCreate_Spot.json");

        SyncPoller<?, AgentPoolInner> creation = sdk().beginCreateOrUpdate(CLUSTER.resourceGroup(), CLUSTER.name(),
                "agentpool1", request(spot));

        assertEquals(LongRunningOperationStatus.SUCCESSFULLY_COMPLETED, creation.waitForCompletion().getStatus());
        assertEquals("Succeeded", creation.getFinalResult().provisioningState());
        assertTrue(arm.inProgressAnswers() >= 1, "the Azure-AsyncOperation URL answered InProgress first");
        assertHolds(spot.at("/responses/200/body"),
                arm.agentPool(CLUSTER.resourceGroup(), CLUSTER.name(), "agentpool1").orElseThrow(), "");
    }

    @Test
    void aTagNameWithASlashIsRefusedAsAzureRefusesIt() throws Exception {
        AgentPoolInner tagged = request(example("AgentPoolsCreate_Spot.json"))
                .withTags(Map.of("gantry.dev/managed", "true"));

        try {
            sdk().createOrUpdate(CLUSTER.resourceGroup(), CLUSTER.name(), "agentpool1", tagged);
            fail("a tag name with '/' was accepted");
        } catch (ManagementException e) {
            assertEquals(400, e.getResponse().getStatusCode());
            assertEquals("InvalidTagNameCharacters", e.getValue().getCode());
        }
    }

    /** The example's request body as the SDK's model. */
    static AgentPoolInner request(JsonNode example) throws IOException {
        try (JsonReader reader = JsonProviders.createReader(example.at("/parameters/parameters").toString())) {
            return AgentPoolInner.fromJson(reader);
        }
    }

    /** Every field of {@code expected} is in {@code actual} with the same value (resource IDs compared without case). */
    static void assertHolds(JsonNode expected, JsonNode actual, String path) {
        if (expected.isObject()) {
            for (Iterator<String> fields = expected.fieldNames(); fields.hasNext(); ) {
                String field = fields.next();
                assertTrue(actual.has(field), path + "/" + field + " is missing from " + actual);
                assertHolds(expected.get(field), actual.get(field), path + "/" + field);
            }
        } else if (path.equals("/id")) {
            assertEquals(expected.asText().toLowerCase(Locale.ROOT).replace(
                    "00000000-0000-0000-0000-000000000000", ArmFake.SUBSCRIPTION), actual.asText().toLowerCase(Locale.ROOT),
                    path);
        } else if (expected.isNumber()) {
            assertEquals(expected.asDouble(), actual.asDouble(), path);
        } else {
            assertEquals(expected, actual, path);
        }
    }
}
