package dev.gantry.benchmarks;

import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.SecretResolver;
import java.nio.file.Path;

/** What a benchmark's backend is given: its own state directory and how its secret references resolve. */
record BenchContext(Path stateDirectory, SecretResolver secrets) implements BackendContext {
}
