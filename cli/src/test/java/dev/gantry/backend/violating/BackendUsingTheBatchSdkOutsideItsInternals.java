package dev.gantry.backend.violating;

import com.microsoft.azure.batch.protocol.models.CloudTask;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class BackendUsingTheBatchSdkOutsideItsInternals {
    CloudTask task;
}
