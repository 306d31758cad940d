package dev.gantry.backend.batch.fake;

import java.util.Set;

/** The top-level properties of the resources the fake lists, from BatchService.json: what {@code $select} may name. */
final class Selectable {
    static final Set<String> TASK = Set.of("id", "displayName", "url", "eTag", "lastModified", "creationTime",
            "exitConditions", "state", "stateTransitionTime", "previousState", "previousStateTransitionTime",
            "commandLine", "containerSettings", "resourceFiles", "outputFiles", "environmentSettings",
            "affinityInfo", "constraints", "requiredSlots", "userIdentity", "executionInfo", "nodeInfo",
            "multiInstanceSettings", "stats", "dependsOn", "applicationPackageReferences",
            "authenticationTokenSettings");
    static final Set<String> POOL = Set.of("id", "displayName", "url", "eTag", "lastModified", "creationTime",
            "state", "stateTransitionTime", "allocationState", "allocationStateTransitionTime", "vmSize",
            "virtualMachineConfiguration", "resizeTimeout", "resizeErrors", "resourceTags", "currentDedicatedNodes",
            "currentLowPriorityNodes", "targetDedicatedNodes", "targetLowPriorityNodes", "enableAutoScale",
            "autoScaleFormula", "autoScaleEvaluationInterval", "autoScaleRun", "enableInterNodeCommunication",
            "networkConfiguration", "startTask", "certificateReferences", "applicationPackageReferences",
            "taskSlotsPerNode", "taskSchedulingPolicy", "userAccounts", "metadata", "stats", "mountConfiguration",
            "identity", "targetNodeCommunicationMode", "currentNodeCommunicationMode", "upgradePolicy");
    static final Set<String> NODE = Set.of("id", "url", "state", "schedulingState", "stateTransitionTime",
            "lastBootTime", "allocationTime", "ipAddress", "affinityId", "vmSize", "totalTasksRun",
            "runningTasksCount", "runningTaskSlotsCount", "totalTasksSucceeded", "recentTasks", "startTask",
            "startTaskInfo", "certificateReferences", "errors", "isDedicated", "endpointConfiguration",
            "nodeAgentInfo", "virtualMachineInfo");
    static final Set<String> IMAGE = Set.of("nodeAgentSKUId", "imageReference", "osType", "capabilities",
            "batchSupportEndOfLife", "verificationType");

    private Selectable() {
    }
}
