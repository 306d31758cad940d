package dev.gantry.runs.engine;

import dev.gantry.core.runs.RunStore;
import java.net.InetAddress;
import java.net.UnknownHostException;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import dev.gantry.model.RunLease;

/**
 * Who holds a run's lease: {@code PID@HOST/NONCE}. A lease held by a process of this machine that has gone (killed,
 * crashed) is abandoned: the next process takes it at once instead of waiting for it to expire. A holder on another
 * machine is never judged gone; its lease runs out.
 */
public record LeaseHolder(String id) {
    /** This process, with a nonce so that two engines in one process are two holders. */
    public static LeaseHolder thisProcess() {
        return new LeaseHolder(ProcessHandle.current().pid() + "@" + hostName() + "/"
                + UUID.randomUUID().toString().substring(0, 8));
    }

    /** Whether the lease's holder is a process of this machine that no longer runs. */
    public static boolean abandoned(RunLease lease) {
        Optional<String> host = part(lease.holder(), '@', '/');
        OptionalLong pid = pid(lease.holder());
        if (host.isEmpty() || pid.isEmpty() || !host.get().equals(hostName())) {
            return false;
        }
        return ProcessHandle.of(pid.getAsLong()).map(handle -> !handle.isAlive()).orElse(true);
    }

    private static OptionalLong pid(String holder) {
        int at = holder.indexOf('@');
        if (at <= 0) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(holder.substring(0, at)));
        } catch (NumberFormatException e) {
            return OptionalLong.empty();
        }
    }

    private static Optional<String> part(String holder, char from, char to) {
        int start = holder.indexOf(from);
        int end = holder.lastIndexOf(to);
        return start >= 0 && end > start ? Optional.of(holder.substring(start + 1, end)) : Optional.empty();
    }

    private static String hostName() {
        return Host.NAME;
    }

    /** Looked up once: a name lookup can be slow, and a machine's name does not change under a running process. */
    private static final class Host {
        static final String NAME = lookUp();
    }

    private static String lookUp() {
        try {
            return InetAddress.getLocalHost().getHostName();
        } catch (UnknownHostException e) {
            return Optional.ofNullable(System.getenv("HOSTNAME")).orElse("localhost");
        }
    }
}
