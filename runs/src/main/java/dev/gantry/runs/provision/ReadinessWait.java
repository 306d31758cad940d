package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import dev.gantry.model.Progress;
import java.util.Objects;

/**
 * Polls a {@link ReadinessCheck} for a set of VMs every {@code interval} until all are ready or {@code timeout}
 * passes. A timeout fails with every VM that is still not ready and the last reason for each; the VMs stay (and bill)
 * so that the user can look at them, and {@code gantry vm down} removes them.
 */
public final class ReadinessWait {
    /** Sleeps between attempts; tests pass one that advances a fake clock. */
    @FunctionalInterface
    public interface Sleeper {
        void sleep(Duration duration) throws InterruptedException;
    }

    private final ReadinessCheck check;
    private final Duration timeout;
    private final Duration interval;
    private final Clock clock;
    private final Sleeper sleeper;

    public ReadinessWait(ReadinessCheck check, Duration timeout, Duration interval, Clock clock, Sleeper sleeper) {
        this.check = Objects.requireNonNull(check, "check");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
        this.interval = Objects.requireNonNull(interval, "interval");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.sleeper = Objects.requireNonNull(sleeper, "sleeper");
    }

    /** SSH reachability, checked every 10 seconds for up to 15 minutes (GPU images can take long to boot). */
    public static ReadinessWait sshPort() {
        return new ReadinessWait(TcpPortCheck.ssh(), Duration.ofMinutes(15), Duration.ofSeconds(10),
                Clock.systemUTC(), pause -> Thread.sleep(pause.toMillis()));
    }

    /** Returns when every VM is ready; throws {@link ErrorCode#REMOTE_ERROR} naming the ones that are not. */
    public void await(List<VmInventoryEntry> vms) {
        await(vms, Progress.NONE);
    }

    /**
     * As {@link #await(List)}, telling {@code progress} after every round which VMs it still waits for and why, as
     * their check answered.
     */
    public void await(List<VmInventoryEntry> vms, Progress progress) {
        String what = "waiting for " + vms.size() + (vms.size() == 1 ? " VM" : " VMs") + " to be ready";
        progress.step(what);
        Instant deadline = clock.instant().plus(timeout);
        // Bounded by attempts as well as by time, so that a clock that does not move cannot make the wait endless.
        long attemptsLeft = timeout.toMillis() / Math.max(1, interval.toMillis()) + 1;
        Map<String, String> waiting = new LinkedHashMap<>();
        Map<String, String> hopeless = new LinkedHashMap<>();
        List<VmInventoryEntry> pending = new ArrayList<>(vms);
        while (true) {
            attemptsLeft--;
            waiting.clear();
            List<VmInventoryEntry> stillPending = new ArrayList<>();
            for (VmInventoryEntry vm : pending) {
                ReadinessCheck.Readiness answer = check.check(vm);
                if (answer.hopeless()) {
                    hopeless.put(vm.name(), answer.detail());
                } else if (!answer.ready()) {
                    waiting.put(vm.name(), answer.detail());
                    stillPending.add(vm);
                }
            }
            pending = stillPending;
            if (pending.isEmpty() && hopeless.isEmpty()) {
                return;
            }
            progress.step(what, waiting.entrySet().stream().map(e -> e.getKey() + ": " + e.getValue())
                    .collect(java.util.stream.Collectors.joining("; ")));
            if (pending.isEmpty() || attemptsLeft <= 0 || !clock.instant().plus(interval).isBefore(deadline)) {
                Map<String, String> all = new LinkedHashMap<>(hopeless);
                all.putAll(waiting);
                throw notReady(all, pending.isEmpty());
            }
            try {
                sleeper.sleep(interval);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while waiting for VMs to become ready",
                        e);
            }
        }
    }

    private GantryException notReady(Map<String, String> waiting, boolean stoppedEarly) {
        StringBuilder message = new StringBuilder(waiting.size() + " VM(s) not ready"
                + (stoppedEarly ? " (waiting would not change it)" : " after " + readable(timeout)) + ":");
        waiting.forEach((name, why) -> message.append("\n  ").append(name).append(": ").append(why));
        message.append("\nThe VMs are still running and billing: inspect them, or remove them with gantry vm down.");
        return new GantryException(ErrorCode.REMOTE_ERROR, message.toString());
    }

    /** {@code 15m}, {@code 90s} → {@code 1m30s}: as the CLI's --wait-timeout is written, not ISO-8601. */
    public static String readable(Duration duration) {
        return duration.toString().substring(2).toLowerCase(java.util.Locale.ROOT);
    }
}
