package dev.gantry.cli.violating;

import dagger.Lazy;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CliUsingDagger {
    Lazy<String> wiredOutsideCore;
}
