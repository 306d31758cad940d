package dev.gantry.core.provision;

/**
 * Tells whether a freshly provisioned VM is ready for work. {@link VmProvisioner} asks repeatedly, within a bound,
 * until every VM answers ready. Implementations: {@link TcpPortCheck} (SSH answers); a {@code doctor} check that runs
 * over SSH plugs in the same way.
 */
@FunctionalInterface
public interface ReadinessCheck {
    /** One attempt; must return promptly (bounded by its own timeout) and never throw for "not yet". */
    Readiness check(VmInventoryEntry vm);

    /** The answer of one attempt; {@code detail} says why not ready, for the final error message. */
    record Readiness(boolean ready, String detail) {
        public static Readiness ok() {
            return new Readiness(true, "ready");
        }

        public static Readiness notYet(String detail) {
            return new Readiness(false, detail);
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
