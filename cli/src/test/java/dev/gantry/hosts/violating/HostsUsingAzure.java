package dev.gantry.hosts.violating;

import dev.gantry.azure.arm.ArmConnector;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class HostsUsingAzure {
    ArmConnector azure;
}
