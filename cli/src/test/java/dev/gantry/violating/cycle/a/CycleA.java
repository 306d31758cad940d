package dev.gantry.violating.cycle.a;

import dev.gantry.violating.cycle.b.CycleB;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
public final class CycleA {
    CycleB other;
}
