package dev.gantry.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/** Waiting for the gantry launchers' start-up archives, which they make in the background after a first run. */
final class StartupArchives {
    private StartupArchives() {
    }

    /**
     * The launchers make their start-up archive in the background after a first run; measuring before it is there
     * would time the runs without it. Waits while a training run holds its lock (in the user's cache, or in a
     * checkout's cli/target/startup).
     */
    static void await(Path home) throws IOException, InterruptedException {
        List<Path> places = List.of(home.resolve(".cache").resolve("gantry"), Path.of("cli", "target", "startup"));
        long deadline = System.nanoTime() + 180_000_000_000L;
        Thread.sleep(500);
        while (System.nanoTime() < deadline) {
            boolean training = false;
            for (Path place : places) {
                if (Files.isDirectory(place)) {
                    try (var found = Files.find(place, 3, (path, attributes) ->
                            path.getFileName().toString().equals("training.lock"))) {
                        training |= found.findAny().isPresent();
                    }
                }
            }
            if (!training) {
                return;
            }
            Thread.sleep(200);
        }
        throw new IllegalStateException("a launcher's start-up archive was still being made after 3 minutes");
    }

}
