package dev.gantry.core.violating;

import com.azure.core.credential.TokenCredential;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CoreUsingAzureSdk {
    TokenCredential credential;
}
