package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.azure.fakes.BatchAccountModel;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The data plane's side of a pool put through Resource Manager ({@code Microsoft.Batch/batchAccounts/pools}, API
 * 2024-07-01): the Resource Manager fake's pool (its {@link BatchAccountModel}) becomes a data-plane pool with the
 * same id, body and user-assigned identities, and a delete through either door removes it from both.
 *
 * <p>Resource Manager's pool shape differs from the data plane's (BatchService.json's PoolAddParameter): the image
 * under {@code deploymentConfiguration.virtualMachineConfiguration} with {@code nodeAgentSkuId} and a gallery image
 * as {@code id}, autoscale under {@code scaleSettings.autoScale}, {@code interNodeCommunication: Enabled}, and its
 * enums capitalised ({@code DockerCompatible}, {@code Simplified}, {@code Pool}, {@code Admin}) where the data plane's
 * are camel case. A property this translation does not know fails the put, naming it, so that nothing Gantry sends
 * is silently dropped.
 */
final class ResourceManagerPools implements BatchAccountModel.PoolListener {
    private static final Set<String> KNOWN = Set.of("vmSize", "deploymentConfiguration", "scaleSettings",
            "interNodeCommunication", "taskSlotsPerNode", "metadata", "startTask", "targetNodeCommunicationMode",
            "displayName",
            // written by Resource Manager's fake itself, not by the caller
            "lastModified", "creationTime", "provisioningState", "provisioningStateTransitionTime",
            "allocationState", "allocationStateTransitionTime", "currentDedicatedNodes", "currentLowPriorityNodes",
            "taskSchedulingPolicy");
    private static final Map<String, String> START_TASK = Map.of("commandLine", "commandLine",
            "environmentSettings", "environmentSettings", "resourceFiles", "resourceFiles",
            "maxTaskRetryCount", "maxTaskRetryCount", "waitForSuccess", "waitForSuccess");

    private final BatchFake fake;

    ResourceManagerPools(BatchFake fake) {
        this.fake = fake;
    }

    @Override
    public void put(String poolName, JsonNode armPool) {
        List<String> identities = new ArrayList<>();
        armPool.path("identity").path("userAssignedIdentities").fieldNames().forEachRemaining(identities::add);
        fake.addPoolFromResourceManager(dataPlaneBody(poolName, armPool.path("properties")).toString(), identities);
    }

    @Override
    public void deleted(String poolName) {
        fake.deletePool(poolName);
    }

    /** The pool's PoolAddParameter body. */
    static ObjectNode dataPlaneBody(String poolName, JsonNode properties) {
        for (Iterator<String> names = properties.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!KNOWN.contains(name)) {
                throw new IllegalArgumentException("the Batch fake does not translate the Resource Manager pool "
                        + "property '" + name + "' to the data plane; known: " + KNOWN);
            }
        }
        ObjectNode body = Json.object();
        body.put("id", poolName);
        copy(properties, body, "displayName", "displayName");
        copy(properties, body, "vmSize", "vmSize");
        JsonNode armMachine = properties.path("deploymentConfiguration").path("virtualMachineConfiguration");
        ObjectNode machine = body.putObject("virtualMachineConfiguration");
        ObjectNode image = machine.putObject("imageReference");
        JsonNode armImage = armMachine.path("imageReference");
        for (String field : List.of("publisher", "offer", "sku", "version")) {
            copy(armImage, image, field, field);
        }
        copy(armImage, image, "id", "virtualMachineImageId");
        copy(armMachine, machine, "nodeAgentSkuId", "nodeAgentSKUId");
        JsonNode armContainers = armMachine.path("containerConfiguration");
        if (!armContainers.isMissingNode()) {
            ObjectNode containers = machine.putObject("containerConfiguration");
            containers.put("type", camel(armContainers.path("type").asText()));
            copy(armContainers, containers, "containerImageNames", "containerImageNames");
        }
        JsonNode autoScale = properties.path("scaleSettings").path("autoScale");
        if (autoScale.isMissingNode()) {
            JsonNode fixed = properties.path("scaleSettings").path("fixedScale");
            body.put("enableAutoScale", false);
            copy(fixed, body, "targetDedicatedNodes", "targetDedicatedNodes");
            copy(fixed, body, "targetLowPriorityNodes", "targetLowPriorityNodes");
        } else {
            body.put("enableAutoScale", true);
            copy(autoScale, body, "formula", "autoScaleFormula");
            copy(autoScale, body, "evaluationInterval", "autoScaleEvaluationInterval");
        }
        body.put("enableInterNodeCommunication", properties.path("interNodeCommunication").asText("Disabled")
                .equals("Enabled"));
        copy(properties, body, "taskSlotsPerNode", "taskSlotsPerNode");
        copy(properties, body, "metadata", "metadata");
        if (properties.has("targetNodeCommunicationMode")) {
            body.put("targetNodeCommunicationMode", camel(properties.get("targetNodeCommunicationMode").asText()));
        }
        JsonNode armStart = properties.path("startTask");
        if (!armStart.isMissingNode()) {
            ObjectNode start = body.putObject("startTask");
            START_TASK.forEach((from, to) -> copy(armStart, start, from, to));
            JsonNode autoUser = armStart.path("userIdentity").path("autoUser");
            if (!autoUser.isMissingNode()) {
                ObjectNode user = start.putObject("userIdentity").putObject("autoUser");
                autoUser.fields().forEachRemaining(field -> user.put(field.getKey(), camel(field.getValue()
                        .asText())));
            }
        }
        return body;
    }

    private static void copy(JsonNode from, ObjectNode to, String name, String as) {
        if (from.has(name)) {
            to.set(as, from.get(name).deepCopy());
        }
    }

    /** Resource Manager's {@code DockerCompatible}, {@code NonAdmin} as the data plane spells them. */
    private static String camel(String value) {
        return value.isEmpty() ? value : Character.toLowerCase(value.charAt(0)) + value.substring(1);
    }
}
