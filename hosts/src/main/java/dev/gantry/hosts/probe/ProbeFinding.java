package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * The result of one check on one host: what was found, what is needed, and how to fix it when it is not OK.
 *
 * @param check the check
 * @param status OK, MISSING or WARN
 * @param found what the host has, e.g. {@code 1 x NVIDIA A10-24Q}
 * @param needed what the plan needs, e.g. {@code 8 GPUs (plan: Standard_ND96isr_H100_v5)}
 * @param fix how to fix it; empty when OK
 */
public record ProbeFinding(Check check, FindingStatus status, String found, String needed, String fix) {
    public ProbeFinding {
        Objects.requireNonNull(check, "check");
        Objects.requireNonNull(status, "status");
        Objects.requireNonNull(found, "found");
        Objects.requireNonNull(needed, "needed");
        Objects.requireNonNull(fix, "fix");
    }

    static ProbeFinding ok(Check check, String found, String needed) {
        return new ProbeFinding(check, FindingStatus.OK, found, needed, "");
    }
}
