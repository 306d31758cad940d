package dev.gantry.backend.violating;

import dev.gantry.Gantry;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
public final class BackendUsingCore {
    Gantry gantry;
}
