package dev.gantry.backend.batch.internal.records;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.backend.batch.internal.render.TaskRef;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * The backend's task entries in its state directory: one small JSON file per task ({@code TASK_ID.json}, the task id
 * being derived from the idempotency key, so one key is one file), each written whole to a temporary file and moved
 * over the old one, so a crash leaves the old entry or the new one, never half of either. The directory is read once
 * per process, on first use; after that this object is the truth for its process. Safe to share between threads.
 */
public final class TaskEntries {
    private static final String SUFFIX = ".json";

    private final Path directory;
    private Map<String, TaskEntry> byKey;

    public TaskEntries(Path directory) {
        this.directory = Objects.requireNonNull(directory, "directory");
    }

    /** The entries under a backend's state directory ({@code BackendContext.stateDirectory()}). */
    public static TaskEntries in(Path stateDirectory) {
        return new TaskEntries(stateDirectory.resolve("tasks"));
    }

    public Path directory() {
        return directory;
    }

    /** Writes the entry (replacing the one of its key) before this returns. */
    public synchronized void save(TaskEntry entry) {
        loaded();
        try {
            Files.createDirectories(directory);
            Path file = file(entry.ref());
            Path temporary = Files.createTempFile(directory, ".entry-", ".tmp");
            try {
                Files.write(temporary, EntryJson.write(entry));
                try {
                    Files.move(temporary, file, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
                } catch (AtomicMoveNotSupportedException e) {
                    Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING);
                }
            } finally {
                Files.deleteIfExists(temporary);
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot write the Batch backend's record of task "
                    + entry.ref() + " under " + directory + ": " + e.getMessage() + "; check that the directory is "
                    + "writable and the disk has room", e);
        }
        byKey.put(entry.idempotencyKey(), entry);
    }

    /** Removes the entry of the task (gc, once Batch has forgotten it); nothing when there is none. */
    public synchronized void remove(TaskEntry entry) {
        loaded();
        try {
            Files.deleteIfExists(file(entry.ref()));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot remove " + file(entry.ref()), e);
        }
        byKey.remove(entry.idempotencyKey());
    }

    public synchronized Optional<TaskEntry> byKey(String idempotencyKey) {
        return Optional.ofNullable(loaded().get(idempotencyKey));
    }

    public synchronized Optional<TaskEntry> byRef(TaskRef ref) {
        return loaded().values().stream().filter(entry -> entry.ref().equals(ref)).findFirst();
    }

    /** The entry of a JobRef's id ({@code ACCOUNT.JOB.TASK}); empty for an id of another form. */
    public synchronized Optional<TaskEntry> byId(String jobRefId) {
        return TaskRef.parse(jobRefId).flatMap(this::byRef);
    }

    /** Every entry, in no particular order. */
    public synchronized List<TaskEntry> all() {
        return new ArrayList<>(loaded().values());
    }

    private Path file(TaskRef ref) {
        return directory.resolve(ref.taskId() + SUFFIX);
    }

    private Map<String, TaskEntry> loaded() {
        if (byKey == null) {
            Map<String, TaskEntry> read = new LinkedHashMap<>();
            if (Files.isDirectory(directory)) {
                try (Stream<Path> files = Files.list(directory)) {
                    for (Path file : files.filter(f -> f.getFileName().toString().endsWith(SUFFIX)).sorted().toList()) {
                        TaskEntry entry = read(file);
                        read.put(entry.idempotencyKey(), entry);
                    }
                } catch (IOException e) {
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot read the Batch backend's task records "
                            + "under " + directory + ": " + e.getMessage(), e);
                }
            }
            byKey = read;
        }
        return byKey;
    }

    private static TaskEntry read(Path file) {
        try {
            return EntryJson.read(Files.readAllBytes(file));
        } catch (IOException | IllegalArgumentException | java.time.DateTimeException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "the Batch backend's task record " + file + " cannot "
                    + "be read (" + e.getMessage() + "); it was not written by this version of Gantry or was "
                    + "changed by hand: move it away to let Gantry forget that task", e);
        }
    }
}
