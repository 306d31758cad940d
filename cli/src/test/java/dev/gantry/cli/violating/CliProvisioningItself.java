package dev.gantry.cli.violating;

import dev.gantry.runs.provision.VmProvisioner;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class CliProvisioningItself {
    VmProvisioner provisioner;
}
