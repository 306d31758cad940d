package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;

/**
 * Tells whether a freshly provisioned VM is ready for work. {@link VmProvisioner} asks repeatedly, within a bound,
 * until every VM answers ready. Implementations: {@link TcpPortCheck} (SSH answers) and {@link DoctorCheck} (the
 * manual backend's doctor passes over SSH), chained with {@link #then}.
 */
@FunctionalInterface
public interface ReadinessCheck {
    /** One attempt; must return promptly (bounded by its own timeout) and never throw for "not yet". */
    Readiness check(VmInventoryEntry vm);

    /**
     * The answer of one attempt; {@code detail} says why not ready, for the final error message. {@code hopeless}
     * marks an answer that waiting cannot change (a host key that does not match the recorded one): the wait stops
     * for that VM at once instead of polling it until the timeout.
     */
    record Readiness(boolean ready, boolean hopeless, String detail) {
        public Readiness(boolean ready, String detail) {
            this(ready, false, detail);
        }

        public static Readiness ok() {
            return new Readiness(true, "ready");
        }

        public static Readiness notYet(String detail) {
            return new Readiness(false, detail);
        }

        public static Readiness never(String detail) {
            return new Readiness(false, true, detail);
        }
    }

    /** This check, then {@code next} once this one passes (e.g. SSH port open, then doctor). */
    default ReadinessCheck then(ReadinessCheck next) {
        return vm -> {
            Readiness first = check(vm);
            return first.ready() ? next.check(vm) : first;
        };
    }
}
