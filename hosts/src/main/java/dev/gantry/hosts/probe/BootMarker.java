package dev.gantry.hosts.probe;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * The readiness marker that the images module's boot script writes ({@value ProbeScript#BOOT_MARKER_PATH}).
 *
 * @param state what the marker says
 * @param time when it was written (UTC, ISO-8601), if present
 * @param failed the names of the boot checks that failed
 */
public record BootMarker(State state, Optional<String> time, List<String> failed) {

    /** What the marker says. */
    public enum State {
        /** No marker: the host was not booted by Gantry's boot script (or cloud-init did not run it). */
        ABSENT,
        /** The boot script is still running. */
        BOOTING,
        /** Every boot check passed. */
        READY,
        /** Some boot checks failed; see {@link BootMarker#failed()}. */
        FAILED,
        /** A marker exists but could not be read or understood. */
        UNREADABLE
    }

    public BootMarker {
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(time, "time");
        failed = List.copyOf(failed);
    }

    public static BootMarker of(State state) {
        return new BootMarker(state, Optional.empty(), List.of());
    }
}
