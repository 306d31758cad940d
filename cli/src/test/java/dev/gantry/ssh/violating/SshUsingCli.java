package dev.gantry.ssh.violating;

import dev.gantry.cli.Main;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class SshUsingCli {
    Main main;
}
