package dev.gantry.core.violating;

import dev.gantry.runs.engine.LeaseHolder;

/** Violates coreOnlyDecides: core reaching up into the runs module that does. */
final class CoreUsingTheRunEngine {
    String holder() {
        return LeaseHolder.thisProcess().toString();
    }
}
