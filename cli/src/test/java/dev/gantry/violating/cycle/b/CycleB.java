package dev.gantry.violating.cycle.b;

import dev.gantry.violating.cycle.a.CycleA;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
public final class CycleB {
    CycleA other;
}
