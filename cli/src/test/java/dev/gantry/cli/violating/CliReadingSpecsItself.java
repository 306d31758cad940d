package dev.gantry.cli.violating;

import dev.gantry.core.spec.SpecReader;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CliReadingSpecsItself {
    SpecReader reader;
}
