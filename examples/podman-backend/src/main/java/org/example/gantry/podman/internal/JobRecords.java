package org.example.gantry.podman.internal;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Eviction;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Optional;

/**
 * What the plugin keeps of a job beside its container, in the backend's state directory, one directory per job
 * ({@code jobs/KEY/}): its output (podman writes it there), and the facts podman cannot hold (a container's labels are
 * fixed when it is made): that Gantry cancelled or evicted it, and why a container never started. It survives the
 * process, so a later backend instance reads the same. Never a secret: values travel to podman in its environment.
 */
public final class JobRecords {
    private static final String LOG = "output.log";
    private static final String CANCELLED = "cancelled";
    private static final String EVICTED = "evicted";
    private static final String START_FAILURE = "start-failure";
    private final Path jobs;

    public JobRecords(Path stateDirectory) {
        this.jobs = stateDirectory.resolve("jobs");
    }

    /** A job's records. */
    public record Record(Optional<Instant> cancelledAt, Optional<Eviction> eviction,
                         Optional<StartFailure> startFailure) {
    }

    /** Why a job's container never started: podman's exit code and error. */
    public record StartFailure(int exitCode, String message) {
    }

    /** The directory of a job's records, made when missing. */
    public Path create(String key) {
        try {
            return Files.createDirectories(jobs.resolve(key));
        } catch (IOException e) {
            throw failure("create the job directory " + jobs.resolve(key), e);
        }
    }

    /** Where podman writes the job's output. */
    public Path logFile(String key) {
        return jobs.resolve(key).resolve(LOG);
    }

    public boolean exists(String key) {
        return Files.isDirectory(jobs.resolve(key));
    }

    public Record read(String key) {
        Path dir = jobs.resolve(key);
        Optional<Instant> cancelled = text(dir.resolve(CANCELLED)).map(String::strip).map(Instant::parse);
        Optional<Eviction> eviction = text(dir.resolve(EVICTED)).map(text -> {
            int nl = text.indexOf('\n');
            return new Eviction(Instant.parse(text.substring(0, nl)), text.substring(nl + 1).strip());
        });
        Optional<StartFailure> failure = text(dir.resolve(START_FAILURE)).map(text -> {
            int nl = text.indexOf('\n');
            return new StartFailure(Integer.parseInt(text.substring(0, nl)), text.substring(nl + 1).strip());
        });
        return new Record(cancelled, eviction, failure);
    }

    public void cancelled(String key, Instant at) {
        write(key, CANCELLED, at + "\n");
    }

    public void evicted(String key, Eviction eviction) {
        write(key, EVICTED, eviction.at() + "\n" + eviction.reason() + "\n");
    }

    public void startFailed(String key, StartFailure failure) {
        write(key, START_FAILURE, failure.exitCode() + "\n" + failure.message() + "\n");
    }

    private void write(String key, String name, String text) {
        Path dir = create(key);
        Path file = dir.resolve(name);
        try {
            // Written whole, then moved into place: a reader never sees half a record.
            Path temporary = Files.createTempFile(dir, name, ".tmp");
            Files.writeString(temporary, text, StandardCharsets.UTF_8);
            Files.move(temporary, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE,
                    java.nio.file.StandardCopyOption.REPLACE_EXISTING);
        } catch (IOException e) {
            throw failure("write " + file, e);
        }
    }

    private static Optional<String> text(Path file) {
        try {
            return Optional.of(Files.readString(file, StandardCharsets.UTF_8));
        } catch (java.nio.file.NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw failure("read " + file, e);
        }
    }

    private static GantryException failure(String what, IOException e) {
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot " + what + ": " + e.getMessage()
                + "; the podman backend keeps its job records in Gantry's state directory, which must be writable",
                e);
    }
}
