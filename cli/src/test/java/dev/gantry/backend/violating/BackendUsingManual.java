package dev.gantry.backend.violating;

import dev.gantry.backend.manual.ManualBackendProvider;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class BackendUsingManual {
    ManualBackendProvider other;
}
