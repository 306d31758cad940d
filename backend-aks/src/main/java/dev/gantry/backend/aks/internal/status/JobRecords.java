package dev.gantry.backend.aks.internal.status;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.io.IOException;
import java.io.Reader;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Instant;
import java.util.HashMap;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Properties;

/**
 * What the backend keeps of each job in its state directory, one small file per Job name: the terminal status once
 * Gantry saw it (so a job whose Job object the TTL deleted still answers), and the most evictions seen (so the count
 * never falls once the replaced pods are gone). Never a secret: statuses and counts only. Each file is read once per
 * process, so that a status poll of many jobs costs no file reads.
 */
public final class JobRecords {
    private static final String STATE = "state";
    private static final String EXIT_CODE = "exitCode";
    private static final String MESSAGE = "message";
    private static final String STARTED = "startedAt";
    private static final String ENDED = "endedAt";
    private static final String EVICTIONS = "evictions";
    private static final String EVICTED_AT = "lastEvictionAt";
    private static final String EVICTION_REASON = "lastEvictionReason";
    private static final String CANCELLED_AT = "cancelledAt";

    private final Path directory;
    private final Map<String, Properties> known = new HashMap<>();

    public JobRecords(Path stateDirectory) {
        this.directory = stateDirectory.resolve("jobs");
    }

    /** The terminal status recorded for the job, if any. */
    public synchronized Optional<JobStatus> terminal(String name) {
        Properties record = read(name);
        String state = record.getProperty(STATE);
        return state == null ? Optional.empty() : Optional.of(status(record, JobState.valueOf(state)));
    }

    /**
     * The status to report for what the cluster says now: a recorded terminal status wins (a cancel recorded before
     * the pods stopped excepted, which the cluster's CANCELLED replaces); evictions never fall below the recorded
     * count; a terminal status is recorded.
     */
    public synchronized JobStatus remember(String name, JobStatus seen) {
        Properties record = read(name);
        Optional<JobStatus> terminal = Optional.ofNullable(record.getProperty(STATE))
                .map(state -> status(record, JobState.valueOf(state)));
        if (terminal.isPresent()) {
            return terminal.get();
        }
        JobStatus status = seen;
        int recorded = Integer.parseInt(record.getProperty(EVICTIONS, "0"));
        if (recorded > status.evictions()) {
            status = status.withEvictions(recorded, lastEviction(record));
        }
        if (status.state().isTerminal() || status.evictions() > recorded) {
            write(name, status);
        }
        return status;
    }

    /** Records a status Gantry decided itself (a cancel, a gang timeout): it is the job's end from now on. */
    public synchronized void end(String name, JobStatus status) {
        if (terminal(name).isEmpty()) {
            write(name, status);
        }
    }

    /**
     * Records that Gantry cancels the job, before it marks and deletes the Job: the job reports CANCELLED once no pod
     * of it is left, also when the Job object is gone by then.
     */
    public synchronized void cancel(String name, Instant at) {
        Properties record = read(name);
        if (record.getProperty(STATE) == null && record.getProperty(CANCELLED_AT) == null) {
            record.setProperty(CANCELLED_AT, at.toString());
            store(name, record);
        }
    }

    /** When Gantry cancelled the job, if it did. */
    public synchronized Optional<Instant> cancelledAt(String name) {
        known.put(name, load(name)); // another process may have cancelled it
        return instant(read(name), CANCELLED_AT);
    }

    /** The end of a cancelled job none of whose pods is left: CANCELLED, recorded. */
    public synchronized JobStatus cancelled(String name, Instant at) {
        Properties record = read(name);
        Optional<Eviction> last = lastEviction(record);
        JobStatus status = new JobStatus(JobState.CANCELLED, OptionalInt.empty(), "cancelled", Optional.empty(),
                Optional.of(at), last.isPresent() ? Integer.parseInt(record.getProperty(EVICTIONS, "0")) : 0, last);
        end(name, status);
        return status;
    }

    private static JobStatus status(Properties record, JobState state) {
        OptionalInt exit = record.containsKey(EXIT_CODE)
                ? OptionalInt.of(Integer.parseInt(record.getProperty(EXIT_CODE))) : OptionalInt.empty();
        int evictions = Integer.parseInt(record.getProperty(EVICTIONS, "0"));
        Optional<Eviction> last = lastEviction(record);
        return new JobStatus(state, exit, record.getProperty(MESSAGE, ""), instant(record, STARTED),
                instant(record, ENDED), last.isPresent() ? evictions : 0, last);
    }

    private static Optional<Eviction> lastEviction(Properties record) {
        return instant(record, EVICTED_AT).map(at -> new Eviction(at, record.getProperty(EVICTION_REASON, "")));
    }

    private static Optional<Instant> instant(Properties record, String key) {
        return Optional.ofNullable(record.getProperty(key)).map(Instant::parse);
    }

    /** The job's record as this process knows it: read from the file once, then kept as it is written. */
    private Properties read(String name) {
        return known.computeIfAbsent(name, this::load);
    }

    private Properties load(String name) {
        Properties record = new Properties();
        Path file = file(name);
        if (Files.isRegularFile(file)) {
            try (Reader reader = Files.newBufferedReader(file, StandardCharsets.UTF_8)) {
                record.load(reader);
            } catch (IOException e) {
                throw new GantryException(ErrorCode.INTERNAL, "cannot read the AKS backend's record " + file + ": "
                        + e.getMessage());
            }
        }
        return record;
    }

    private void write(String name, JobStatus status) {
        Properties record = new Properties();
        Optional.ofNullable(read(name).getProperty(CANCELLED_AT)).ifPresent(at -> record.setProperty(CANCELLED_AT, at));
        if (status.state().isTerminal()) {
            record.setProperty(STATE, status.state().name());
            status.exitCode().ifPresent(code -> record.setProperty(EXIT_CODE, Integer.toString(code)));
            record.setProperty(MESSAGE, status.message());
            status.startedAt().ifPresent(at -> record.setProperty(STARTED, at.toString()));
            status.endedAt().ifPresent(at -> record.setProperty(ENDED, at.toString()));
        }
        record.setProperty(EVICTIONS, Integer.toString(status.evictions()));
        status.lastEviction().ifPresent(eviction -> {
            record.setProperty(EVICTED_AT, eviction.at().toString());
            record.setProperty(EVICTION_REASON, eviction.reason());
        });
        store(name, record);
    }

    private void store(String name, Properties record) {
        known.put(name, record);
        Path file = file(name);
        try {
            Files.createDirectories(directory);
            Path temporary = Files.createTempFile(directory, name, ".tmp");
            try (Writer writer = Files.newBufferedWriter(temporary, StandardCharsets.UTF_8)) {
                record.store(writer, "gantry aks job " + name);
            }
            try {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot write the AKS backend's record " + file + ": "
                    + e.getMessage());
        }
    }

    private Path file(String name) {
        return directory.resolve(name + ".properties");
    }
}
