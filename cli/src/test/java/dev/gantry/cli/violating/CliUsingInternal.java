package dev.gantry.cli.violating;

import dev.gantry.backend.manual.internal.ManualBackend;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CliUsingInternal {
    ManualBackend internal;
}
