package dev.gantry.api;

/** What the workload does with its model. Specs spell the constants in lower case. */
public enum Phase {
    /** Fitting a model's weights. */
    TRAINING,
    /** Serving or scoring with a trained model. */
    INFERENCE;
}
