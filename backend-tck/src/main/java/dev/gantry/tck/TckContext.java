package dev.gantry.tck;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.BackendContext;
import dev.gantry.api.backend.Secret;
import dev.gantry.api.backend.SecretResolver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Stream;

/**
 * A {@link BackendContext} for conformance runs: a fresh state directory, a scratch directory jobs may use, and
 * secrets held in a map (register them with {@link #putSecret}). {@link #close()} deletes both directories.
 */
public final class TckContext implements BackendContext, AutoCloseable {
    private final Path root;
    private final Path stateDirectory;
    private final Path scratchDirectory;
    private final Map<SecretRef, String> secrets = new ConcurrentHashMap<>();

    private TckContext(Path root) throws IOException {
        this.root = root;
        this.stateDirectory = Files.createDirectories(root.resolve("state"));
        this.scratchDirectory = Files.createDirectories(root.resolve("scratch"));
    }

    /** A context under a new temporary directory. */
    public static TckContext create() {
        try {
            // The real path, so that what a job's pwd prints compares equal on systems where /tmp is a link.
            return new TckContext(Files.createTempDirectory("gantry-tck-").toRealPath());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot create a temporary directory for the conformance kit", e);
        }
    }

    @Override
    public Path stateDirectory() {
        return stateDirectory;
    }

    /** A directory that exists for the whole run and that no backend owns. */
    public Path scratchDirectory() {
        return scratchDirectory;
    }

    /** Makes {@code ref} resolve to {@code value}. */
    public TckContext putSecret(SecretRef ref, String value) {
        secrets.put(ref, value);
        return this;
    }

    @Override
    public SecretResolver secrets() {
        return ref -> {
            String value = secrets.get(ref);
            if (value == null) {
                throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + " is not defined in the "
                        + "conformance context; register it with TckContext.putSecret");
            }
            return new Secret(value);
        };
    }

    @Override
    public void close() {
        if (!Files.exists(root)) {
            return;
        }
        try (Stream<Path> paths = Files.walk(root)) {
            paths.sorted(Comparator.reverseOrder()).forEach(path -> path.toFile().delete());
        } catch (IOException e) {
            throw new UncheckedIOException("cannot delete " + root, e);
        }
    }
}
