package dev.gantry.azure.aks;

/** The VMs of a node pool: regular (on-demand) or Spot, as AKS's {@code scaleSetPriority} says. */
public enum Priority {
    REGULAR("Regular"),
    SPOT("Spot");

    private final String armValue;

    Priority(String armValue) {
        this.armValue = armValue;
    }

    /** The value AKS writes: {@code Regular} or {@code Spot}. */
    public String armValue() {
        return armValue;
    }

    /** AKS's value (any case); a pool that reports none is regular, as AKS's default is. */
    static Priority ofArm(String value) {
        return SPOT.armValue.equalsIgnoreCase(value) ? SPOT : REGULAR;
    }
}
