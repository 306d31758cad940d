package dev.gantry.core.violating;

import java.io.IOException;

/** Violates coreOnlyDecides: core starting a process (as reading a git checkout does, in the runs module). */
final class CoreStartingAProcess {
    Process start() throws IOException {
        return new ProcessBuilder("git", "rev-parse", "HEAD").start();
    }
}
