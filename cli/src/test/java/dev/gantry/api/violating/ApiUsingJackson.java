package dev.gantry.api.violating;

import com.fasterxml.jackson.databind.ObjectMapper;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest; never used elsewhere. */
public final class ApiUsingJackson {
    ObjectMapper mapper;
}
