package dev.gantry.hosts.jobs;

import dev.gantry.hosts.Host;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * One job's directory on a host: {@code <workDir>/<job-id>/} with {@code job.json}, {@code launched}, {@code pid},
 * {@code pgid}, {@code started}, {@code ended}, {@code exit}, {@code stdout}, {@code stderr} and the markers
 * {@code cancelled} and {@code preempted}. The directory is the job's whole state: any later process can read it.
 */
public final class JobDirectory {
    public static final String RECORD = "job.json";
    public static final String LAUNCHED = "launched";
    public static final String LAUNCH_LOG = "launch.log";
    public static final String PID = "pid";
    public static final String PGID = "pgid";
    public static final String STARTED = "started";
    public static final String ENDED = "ended";
    public static final String EXIT = "exit";
    public static final String STDOUT = "stdout";
    public static final String STDERR = "stderr";
    public static final String CANCELLED = "cancelled";
    public static final String PREEMPTED = "preempted";

    private final Host host;
    private final String path;

    public JobDirectory(Host host, String path) {
        this.host = host;
        this.path = path;
    }

    public String path() {
        return path;
    }

    public String file(String name) {
        return path + "/" + name;
    }

    public boolean exists() {
        return host.isDirectory(path);
    }

    /** Creates the directory; false when it already existed (a retried submit). */
    public boolean create() {
        return host.createDirectory(path);
    }

    public Optional<JobRecord> record() {
        return host.readText(file(RECORD)).flatMap(JobRecord::parse);
    }

    public void writeRecord(JobRecord record) {
        host.writeAtomically(file(RECORD), record.toJson());
    }

    public boolean launched() {
        return host.exists(file(LAUNCHED)) || host.exists(file(PID));
    }

    public OptionalLong pgid() {
        return number(PGID);
    }

    public boolean ended() {
        return host.exists(file(EXIT)) || host.exists(file(CANCELLED)) || host.exists(file(PREEMPTED));
    }

    /** Writes a marker unless one already ended the job; false when the job had already ended. */
    public boolean mark(String marker, Instant when, String reason) {
        if (ended()) {
            return false;
        }
        host.writeAtomically(file(marker), when + "\n" + reason + "\n");
        return true;
    }

    /** Reads every file status needs, in the order the wrapper writes them backwards (exit before pid). */
    public JobSnapshot snapshot() {
        Optional<String> cancelled = host.readText(file(CANCELLED));
        Optional<String> preempted = host.readText(file(PREEMPTED));
        OptionalLong exit = number(EXIT);
        OptionalLong pid = number(PID);
        boolean launched = pid.isPresent() || host.exists(file(LAUNCHED));
        Optional<Instant> started = instant(host.readText(file(STARTED)));
        Optional<Instant> ended = instant(host.readText(file(ENDED)))
                .or(() -> instant(cancelled))
                .or(() -> instant(preempted));
        boolean alive = exit.isEmpty() && pid.isPresent() && host.isAlive(pid.getAsLong(), started);
        if (!alive && exit.isEmpty() && pid.isPresent()) {
            // The job may have ended between reading exit and looking at the process: the wrapper writes exit
            // before it exits, so a second look tells a finished job from one that died without an exit code.
            exit = number(EXIT);
            ended = ended.or(() -> instant(host.readText(file(ENDED))));
        }
        String program = record().map(JobRecord::program).orElse("");
        return new JobSnapshot(program, launched, pid, alive,
                exit.isPresent() ? OptionalInt.of((int) exit.getAsLong()) : OptionalInt.empty(),
                cancelled.isPresent(), preempted.map(JobDirectory::reason), started, ended);
    }

    private OptionalLong number(String name) {
        Optional<String> text = host.readText(file(name));
        if (text.isEmpty()) {
            return OptionalLong.empty();
        }
        try {
            return OptionalLong.of(Long.parseLong(text.get().strip()));
        } catch (NumberFormatException e) {
            return OptionalLong.empty(); // a half-written file cannot happen (rename), a damaged one reads as absent
        }
    }

    /** The first line of a marker or stamp, as an instant. */
    private static Optional<Instant> instant(Optional<String> text) {
        return text.flatMap(t -> {
            String first = t.lines().findFirst().orElse("").strip();
            try {
                return Optional.of(Instant.parse(first));
            } catch (DateTimeParseException e) {
                return Optional.empty();
            }
        });
    }

    /** A marker's lines after the time stamp. */
    private static String reason(String marker) {
        int newline = marker.indexOf('\n');
        return newline < 0 ? "" : marker.substring(newline + 1).strip();
    }
}
