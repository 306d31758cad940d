package dev.gantry.backend.violating;

import dev.gantry.hosts.json.internal.Json;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class BackendUsingHostsInternals {
    Json internals;
}
