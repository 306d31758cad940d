package dev.gantry.azure.violating;

import com.microsoft.rest.RestClient;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class AzureModuleUsingTheBatchSdk {
    RestClient client;
}
