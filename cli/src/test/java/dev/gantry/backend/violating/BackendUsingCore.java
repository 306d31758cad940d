package dev.gantry.backend.violating;

import dev.gantry.core.Gantry;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
public final class BackendUsingCore {
    Gantry gantry;
}
