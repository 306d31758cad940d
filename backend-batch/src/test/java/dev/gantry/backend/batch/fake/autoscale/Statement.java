package dev.gantry.backend.batch.fake.autoscale;

/** {@code name = value;}: a user variable, a target, or {@code $NodeDeallocationOption}. */
record Statement(Position at, String name, Expr value) {
}
