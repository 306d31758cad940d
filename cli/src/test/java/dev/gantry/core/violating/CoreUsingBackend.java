package dev.gantry.core.violating;

import dev.gantry.backend.manual.ManualBackendProvider;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CoreUsingBackend {
    ManualBackendProvider manual;
}
