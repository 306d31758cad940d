package dev.gantry.http.violating;

import dev.gantry.api.GantryException;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
final class HttpUsingTheApi {
    GantryException error;
}
