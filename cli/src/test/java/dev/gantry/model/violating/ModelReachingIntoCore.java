package dev.gantry.model.violating;

import dev.gantry.core.runs.RunScheduler;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class ModelReachingIntoCore {
    RunScheduler scheduler;
}
