package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The request bodies the fake accepts, written from the definitions of BatchService.json (2024-07-01.20.0) for the
 * types Gantry sends: each type's properties with their kind ({@code string}, {@code int}, {@code bool},
 * {@code enum:a|b}, a type name, {@code [element]} for arrays, {@code any} for parts the fake does not look into),
 * a {@code !} after a name marking it required. A property the type does not have is refused, so that a typo in a
 * body fails a test instead of being ignored; a missing required one is {@code MissingRequiredProperty}; a value of
 * the wrong kind is {@code InvalidPropertyValue}.
 */
final class BodySchema {
    private static final Map<String, Map<String, String>> TYPES = new HashMap<>();

    static {
        type("PoolAddParameter", "id!", "string", "displayName", "string", "vmSize!", "string",
                "virtualMachineConfiguration", "VirtualMachineConfiguration", "resizeTimeout", "string",
                "resourceTags", "any", "targetDedicatedNodes", "int", "targetLowPriorityNodes", "int",
                "enableAutoScale", "bool", "autoScaleFormula", "string", "autoScaleEvaluationInterval", "string",
                "enableInterNodeCommunication", "bool", "networkConfiguration", "any", "startTask", "StartTask",
                "certificateReferences", "any", "applicationPackageReferences", "any", "taskSlotsPerNode", "int",
                "taskSchedulingPolicy", "any", "userAccounts", "any", "metadata", "[MetadataItem]",
                "mountConfiguration", "any", "targetNodeCommunicationMode", "enum:default|classic|simplified",
                "upgradePolicy", "any");
        type("VirtualMachineConfiguration", "imageReference!", "ImageReference", "nodeAgentSKUId!", "string",
                "windowsConfiguration", "any", "dataDisks", "any", "licenseType", "string",
                "containerConfiguration", "ContainerConfiguration", "diskEncryptionConfiguration", "any",
                "nodePlacementConfiguration", "any", "extensions", "any", "osDisk", "any", "securityProfile", "any",
                "serviceArtifactReference", "any");
        type("ImageReference", "publisher", "string", "offer", "string", "sku", "string", "version", "string",
                "virtualMachineImageId", "string");
        type("ContainerConfiguration", "type!", "enum:dockerCompatible|criCompatible", "containerImageNames",
                "[string]", "containerRegistries", "any");
        type("StartTask", "commandLine!", "string", "containerSettings", "TaskContainerSettings",
                "resourceFiles", "[ResourceFile]", "environmentSettings", "[EnvironmentSetting]",
                "userIdentity", "UserIdentity", "maxTaskRetryCount", "int", "waitForSuccess", "bool");
        type("MetadataItem", "name!", "string", "value!", "string");
        type("EnvironmentSetting", "name!", "string", "value", "string");
        type("ResourceFile", "autoStorageContainerName", "string", "storageContainerUrl", "string",
                "httpUrl", "string", "blobPrefix", "string", "filePath", "string", "fileMode", "string",
                "identityReference", "IdentityReference");
        type("IdentityReference", "resourceId", "string");
        type("UserIdentity", "username", "string", "autoUser", "AutoUserSpecification");
        type("AutoUserSpecification", "scope", "enum:task|pool", "elevationLevel", "enum:nonadmin|admin");
        type("TaskContainerSettings", "containerRunOptions", "string", "imageName!", "string", "registry", "any",
                "workingDirectory", "enum:taskWorkingDirectory|containerImageDefault",
                "containerHostBatchBindMounts", "any");
        type("JobAddParameter", "id!", "string", "displayName", "string", "priority", "int",
                "maxParallelTasks", "int", "allowTaskPreemption", "bool", "constraints", "JobConstraints",
                "jobManagerTask", "any", "jobPreparationTask", "any", "jobReleaseTask", "any",
                "commonEnvironmentSettings", "[EnvironmentSetting]", "poolInfo!", "PoolInformation",
                "onAllTasksComplete", "enum:noaction|terminatejob",
                "onTaskFailure", "enum:noaction|performexitoptionsjobaction", "metadata", "[MetadataItem]",
                "usesTaskDependencies", "bool", "networkConfiguration", "any");
        type("PoolInformation", "poolId", "string", "autoPoolSpecification", "any");
        type("JobConstraints", "maxWallClockTime", "string", "maxTaskRetryCount", "int");
        type("JobTerminateParameter", "terminateReason", "string");
        type("TaskAddParameter", "id!", "string", "displayName", "string", "commandLine!", "string",
                "containerSettings", "TaskContainerSettings", "exitConditions", "ExitConditions",
                "resourceFiles", "[ResourceFile]", "outputFiles", "any", "environmentSettings",
                "[EnvironmentSetting]", "affinityInfo", "any", "constraints", "TaskConstraints",
                "requiredSlots", "int", "userIdentity", "UserIdentity", "multiInstanceSettings",
                "MultiInstanceSettings", "dependsOn", "TaskDependencies", "applicationPackageReferences", "any",
                "authenticationTokenSettings", "any");
        type("TaskConstraints", "maxWallClockTime", "string", "retentionTime", "string",
                "maxTaskRetryCount", "int");
        type("MultiInstanceSettings", "numberOfInstances", "int", "coordinationCommandLine!", "string",
                "commonResourceFiles", "[ResourceFile]");
        type("TaskDependencies", "taskIds", "[string]", "taskIdRanges", "[TaskIdRange]");
        type("TaskIdRange", "start!", "int", "end!", "int");
        type("ExitConditions", "exitCodes", "[ExitCodeMapping]", "exitCodeRanges", "[ExitCodeRangeMapping]",
                "preProcessingError", "ExitOptions", "fileUploadError", "ExitOptions", "default", "ExitOptions");
        type("ExitCodeMapping", "code!", "int", "exitOptions!", "ExitOptions");
        type("ExitCodeRangeMapping", "start!", "int", "end!", "int", "exitOptions!", "ExitOptions");
        type("ExitOptions", "jobAction", "enum:none|disable|terminate", "dependencyAction", "enum:satisfy|block");
        type("TaskAddCollectionParameter", "value!", "[TaskAddParameter]");
        type("PoolEnableAutoScaleParameter", "autoScaleFormula", "string", "autoScaleEvaluationInterval",
                "string");
        type("PoolEvaluateAutoScaleParameter", "autoScaleFormula!", "string");
        type("NodeRemoveParameter", "nodeList!", "[string]", "resizeTimeout", "string",
                "nodeDeallocationOption", "enum:requeue|terminate|taskcompletion|retaineddata");
    }

    private BodySchema() {
    }

    private static void type(String name, String... propertiesAndKinds) {
        Map<String, String> properties = new LinkedHashMap<>();
        for (int i = 0; i < propertiesAndKinds.length; i += 2) {
            properties.put(propertiesAndKinds[i], propertiesAndKinds[i + 1]);
        }
        TYPES.put(name, properties);
    }

    /** Checks a body against a type, throwing Batch's error for the first problem (its path names the property). */
    static void check(String type, JsonNode body) {
        checkObject(type, body, "");
    }

    private static void checkObject(String type, JsonNode node, String path) {
        Map<String, String> properties = TYPES.get(type);
        if (!node.isObject()) {
            throw BatchError.invalidProperty(path.isEmpty() ? type : path, node.toString(), "expected an object ("
                    + type + ")");
        }
        for (Iterator<String> names = node.fieldNames(); names.hasNext(); ) {
            String name = names.next();
            if (!properties.containsKey(name) && !properties.containsKey(name + "!")) {
                throw BatchError.invalidBody("unknown property '" + join(path, name) + "': " + type + " has "
                        + String.join(", ", properties.keySet()).replace("!", ""));
            }
        }
        properties.forEach((declared, kind) -> {
            boolean required = declared.endsWith("!");
            String name = required ? declared.substring(0, declared.length() - 1) : declared;
            JsonNode value = node.get(name);
            if (value == null || value.isNull()) {
                if (required) {
                    throw BatchError.missingProperty(join(path, name));
                }
                return;
            }
            checkValue(kind, value, join(path, name));
        });
    }

    private static void checkValue(String kind, JsonNode value, String path) {
        if (kind.equals("any")) {
            return;
        }
        if (kind.startsWith("[")) {
            if (!value.isArray()) {
                throw BatchError.invalidProperty(path, value.toString(), "expected an array");
            }
            String element = kind.substring(1, kind.length() - 1);
            for (int i = 0; i < value.size(); i++) {
                checkValue(element, value.get(i), path + "[" + i + "]");
            }
            return;
        }
        switch (kind) {
            case "string" -> require(value.isTextual(), path, value, "expected a string");
            case "int" -> require(value.isIntegralNumber(), path, value, "expected an integer");
            case "bool" -> require(value.isBoolean(), path, value, "expected true or false");
            default -> {
                if (kind.startsWith("enum:")) {
                    String allowed = kind.substring("enum:".length());
                    require(value.isTextual() && java.util.List.of(allowed.split("\\|")).contains(value.asText()),
                            path, value, "expected one of " + allowed.replace("|", ", "));
                } else {
                    checkObject(kind, value, path);
                }
            }
        }
    }

    private static void require(boolean ok, String path, JsonNode value, String reason) {
        if (!ok) {
            throw BatchError.invalidProperty(path, value.isTextual() ? value.asText() : value.toString(), reason);
        }
    }

    private static String join(String path, String name) {
        return path.isEmpty() ? name : path + "." + name;
    }
}
