package dev.gantry.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Loads and initializes the classes a file names, in its order, and does nothing else: the floor under a command that
 * uses those classes ({@link StartupClassFloor} runs it in the gantry launcher's JVM). Arguments after the file are
 * ignored (the launcher appends its own).
 */
public final class LoadClassList {
    private LoadClassList() {
    }

    public static void main(String[] args) throws Exception {
        List<String> names = Files.readAllLines(Path.of(args[0]));
        ClassLoader loader = ClassLoader.getSystemClassLoader();
        int failed = 0;
        for (String name : names) {
            try {
                Class.forName(name, true, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                failed++; // a class the command made at run time, or one whose initializer needs the command's state
            }
        }
        if (failed > names.size() / 100) {
            throw new IllegalStateException(failed + " of " + names.size() + " classes did not load");
        }
    }
}
