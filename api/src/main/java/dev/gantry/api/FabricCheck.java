package dev.gantry.api;

import java.util.Objects;
import java.util.Optional;

/**
 * The workload's choice about the fabric check: a short all-reduce every rank runs before the command, whose bus
 * bandwidth must reach a floor or the attempt fails before training starts. Specs write it as
 * {@code fabricCheck: true}, {@code fabricCheck: false}, or a mapping that turns it on with a floor of the workload's
 * own ({@code fabricCheck: {minBusBandwidthGBps: 40, messageMiB: 1024}}). Left out, the check runs for multi-node
 * training on an RDMA size whose floor Gantry knows, and nowhere else (see the job's start checks,
 * {@code dev.gantry.api.backend.StartChecks}).
 *
 * @param enabled whether the check runs
 * @param minBusBandwidthGBps the floor in GB/s (nccl-tests' bus bandwidth) in place of the size's published one;
 *     empty for the size's
 * @param messageMiB the all-reduce's message in MiB in place of the size's; empty for the size's
 */
public record FabricCheck(boolean enabled, Optional<Double> minBusBandwidthGBps, Optional<Integer> messageMiB) {
    /** The largest message the check sends: 64 GiB, more than any GPU of the catalog holds twice over. */
    public static final int MAX_MESSAGE_MIB = 65_536;

    /**
     * Checks the floor and the message.
     *
     * @param enabled whether the check runs
     * @param minBusBandwidthGBps the floor, greater than zero and finite; only with {@code enabled}
     * @param messageMiB the message, 1 to {@link #MAX_MESSAGE_MIB}; only with {@code enabled}
     * @throws NullPointerException when an optional is null
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} listing every problem, each under its field
     */
    public FabricCheck {
        Objects.requireNonNull(minBusBandwidthGBps, "minBusBandwidthGBps");
        Objects.requireNonNull(messageMiB, "messageMiB");
        Checks checks = new Checks();
        minBusBandwidthGBps.ifPresent(floor -> checks.require(floor > 0 && Double.isFinite(floor),
                "minBusBandwidthGBps", "must be > 0 (GB/s of all-reduce bus bandwidth), got "
                        + Numbers.format(floor)));
        messageMiB.ifPresent(mib -> checks.require(mib >= 1 && mib <= MAX_MESSAGE_MIB, "messageMiB",
                "must be 1 to " + MAX_MESSAGE_MIB + " (MiB per rank), got " + mib));
        checks.require(enabled || (minBusBandwidthGBps.isEmpty() && messageMiB.isEmpty()), "enabled",
                "a floor or a message size only applies to a check that runs; drop them or turn the check on");
        checks.throwIfAny();
    }

    /** {@return the check on, with the size's published floor and message} */
    public static FabricCheck on() {
        return new FabricCheck(true, Optional.empty(), Optional.empty());
    }

    /** {@return the check off, even where it would run by default} */
    public static FabricCheck off() {
        return new FabricCheck(false, Optional.empty(), Optional.empty());
    }

    /**
     * The check on with a floor of the workload's own: for a size without a published figure, or a fabric the
     * workload knows better.
     *
     * @param minBusBandwidthGBps the floor in GB/s, greater than zero
     * @param messageMiB the all-reduce's message in MiB per rank, 1 to {@link #MAX_MESSAGE_MIB}
     * @return the check on with that floor and message
     * @throws GantryException with {@link ErrorCode#SPEC_INVALID} when a value is out of range
     */
    public static FabricCheck withFloor(double minBusBandwidthGBps, int messageMiB) {
        return new FabricCheck(true, Optional.of(minBusBandwidthGBps), Optional.of(messageMiB));
    }
}
