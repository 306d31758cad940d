package dev.gantry;

/** A deliberate violation of a layer rule, for LayerRulesCatchViolationsTest: a part of the facade holding it. */
final class SubFacadeHoldingTheFacade {
    private final Gantry gantry;

    SubFacadeHoldingTheFacade(Gantry gantry) {
        this.gantry = gantry;
    }

    String backendName() {
        return gantry.config().backend();
    }
}
