package dev.gantry.azure.batch;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import java.util.TreeMap;

/**
 * A {@link BatchPoolSpec} in Resource Manager's pool shape ({@code Microsoft.Batch/batchAccounts/pools}, API
 * 2024-07-01), which differs from the data plane's: the image sits under
 * {@code properties.deploymentConfiguration.virtualMachineConfiguration}, autoscale under
 * {@code properties.scaleSettings.autoScale}, inter-node communication is {@code Enabled}/{@code Disabled}, and the
 * identity is the resource's {@code identity.userAssignedIdentities}.
 */
final class ArmPoolBody {
    private static final ObjectMapper JSON = new ObjectMapper();

    private ArmPoolBody() {
    }

    static ObjectNode of(BatchPoolSpec spec) {
        ObjectNode body = JSON.createObjectNode();
        ObjectNode properties = body.putObject("properties");
        properties.put("vmSize", spec.vmSize());
        ObjectNode machine = properties.putObject("deploymentConfiguration").putObject("virtualMachineConfiguration");
        ObjectNode image = machine.putObject("imageReference");
        if (spec.image() instanceof BatchPoolSpec.Marketplace marketplace) {
            image.put("publisher", marketplace.publisher()).put("offer", marketplace.offer())
                    .put("sku", marketplace.sku()).put("version", marketplace.version());
        } else {
            image.put("id", ((BatchPoolSpec.Gallery) spec.image()).imageId());
        }
        machine.put("nodeAgentSkuId", spec.nodeAgentSkuId());
        if (spec.containers()) {
            ObjectNode containers = machine.putObject("containerConfiguration").put("type", "DockerCompatible");
            if (!spec.containerImageNames().isEmpty()) {
                ArrayNode names = containers.putArray("containerImageNames");
                spec.containerImageNames().forEach(names::add);
            }
        }
        properties.putObject("scaleSettings").putObject("autoScale")
                .put("formula", spec.autoScaleFormula())
                .put("evaluationInterval", spec.autoScaleEvaluationInterval().toString());
        properties.put("interNodeCommunication", spec.interNodeCommunication() ? "Enabled" : "Disabled");
        properties.put("taskSlotsPerNode", spec.taskSlotsPerNode());
        properties.put("targetNodeCommunicationMode", "Simplified");
        spec.startTask().ifPresent(task -> startTask(properties.putObject("startTask"), task));
        if (!spec.metadata().isEmpty()) {
            nameValues(properties.putArray("metadata"), spec.metadata());
        }
        body.putObject("identity").put("type", "UserAssigned")
                .putObject("userAssignedIdentities").putObject(spec.identityResourceId());
        return body;
    }

    private static void startTask(ObjectNode node, BatchPoolSpec.StartTask task) {
        node.put("commandLine", task.commandLine());
        if (!task.environment().isEmpty()) {
            nameValues(node.putArray("environmentSettings"), task.environment());
        }
        node.putObject("userIdentity").putObject("autoUser").put("scope", "Pool")
                .put("elevationLevel", task.elevated() ? "Admin" : "NonAdmin");
        node.put("maxTaskRetryCount", task.maxTaskRetryCount());
        node.put("waitForSuccess", task.waitForSuccess());
    }

    /** Name-value pairs sorted by name, so that a body reads the same whatever map it came from. */
    private static void nameValues(ArrayNode array, Map<String, String> pairs) {
        new TreeMap<>(pairs).forEach((name, value) -> array.addObject().put("name", name).put("value", value));
    }
}
