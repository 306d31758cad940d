package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.HourlyPrice;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.IdleResource;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import dev.gantry.api.backend.SubmitOptions;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.stream.Stream;

/**
 * A test plugin with idle pools, for {@code gantry gc}: each file in its {@code dir} setting is a pool of that name
 * in account {@code acct1}, and its text says what a release meets: {@code idle} (released: the file goes),
 * {@code busy} (a job came meanwhile: kept) or {@code fail} (the orchestrator refuses). It runs no jobs. Found only
 * through a class loader that adds its service file ({@link GcCommandTest}), so the other tests' backend lists stay as
 * they are.
 */
final class IdlePoolsBackend implements Backend {
    static final String NAME = "idle-pools";
    static final String LOCATION = "acct1";
    static final Instant IDLE_SINCE = Instant.parse("2026-12-05T08:00:00.250Z");

    private final Path dir;

    private IdlePoolsBackend(Path dir) {
        this.dir = dir;
    }

    @Override
    public List<IdleResource> idleResources() {
        try (Stream<Path> pools = Files.list(dir)) {
            return pools.map(pool -> pool.getFileName().toString()).sorted()
                    .map(id -> IdleResource.of("pool", id, "no active or running task for 1h").withLocation(LOCATION)
                            .withIdleSince(IDLE_SINCE).withCostPerHour(HourlyPrice.usd(0.192, 2)))
                    .toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public boolean release(IdleResource resource) {
        Path pool = dir.resolve(resource.id());
        try {
            if (!Files.exists(pool)) {
                return true;
            }
            switch (Files.readString(pool).strip()) {
                case "busy":
                    return false;
                case "fail":
                    throw new GantryException(ErrorCode.REMOTE_ERROR, "PoolBeingResized: pool " + resource.id()
                            + " is resizing; try again when it has finished");
                default:
                    Files.delete(pool);
                    return true;
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public Capabilities capabilities() {
        return Capabilities.builder().build();
    }

    @Override
    public List<Problem> validate(Plan plan) {
        return List.of(Problem.of("backend", "the idle-pools test backend runs no jobs"));
    }

    @Override
    public JobRef submit(Plan plan, SubmitOptions options) {
        throw new GantryException(ErrorCode.PLAN_REJECTED, "the idle-pools test backend runs no jobs");
    }

    @Override
    public JobStatus status(JobRef job) {
        throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id());
    }

    @Override
    public void logs(JobRef job, LogOptions options, LogSink sink) {
        throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id());
    }

    @Override
    public void cancel(JobRef job) {
        throw new GantryException(ErrorCode.JOB_NOT_FOUND, "no job " + job.id());
    }

    @Override
    public void close() {
    }

    /** The plugin's provider, named in its own service file. */
    public static final class Provider implements BackendProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public String description() {
            return "Test plugin with idle pools";
        }

        @Override
        public Capabilities capabilities() {
            return Capabilities.builder().build();
        }

        @Override
        public List<ConfigKey> configKeys() {
            return List.of(ConfigKey.required("dir", "The folder whose files are the idle pools."));
        }

        @Override
        public Backend create(BackendConfig config, BackendContext context) {
            return new IdlePoolsBackend(Path.of(config.require("dir")));
        }
    }
}
