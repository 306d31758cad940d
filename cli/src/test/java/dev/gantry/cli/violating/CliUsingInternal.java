package dev.gantry.cli.violating;

import dev.gantry.backend.manual.internal.SshBackend;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CliUsingInternal {
    SshBackend internal;
}
