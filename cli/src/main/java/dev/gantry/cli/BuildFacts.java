package dev.gantry.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;

/**
 * What the build wrote about itself ({@code build.properties}, by cli/src/build/BuildInfo.java): the version and
 * the git commit. A class of its own, loading nothing else, so that {@code gantry --version} costs one resource read.
 */
final class BuildFacts {
    static final String RESOURCE = "build.properties";
    private static final Properties FACTS = read();

    private BuildFacts() {
    }

    /** The version the build gave this CLI; {@code unknown} when compiled without the build step (an IDE). */
    static String version() {
        return FACTS.getProperty("version", "unknown");
    }

    /** The git commit this CLI was built from; {@code unknown} when built outside a git checkout. */
    static String commit() {
        return FACTS.getProperty("commit", "unknown");
    }

    /**
     * The one line of {@code gantry --version}. Built without {@code +}: the first string concatenation of a JVM
     * bootstraps invokedynamic's method handles, about 20 ms of a start that is otherwise this line.
     */
    static String versionLine() {
        return new StringBuilder("gantry ").append(version()).append(" (commit ").append(commit()).append(')')
                .toString();
    }

    private static Properties read() {
        Properties properties = new Properties();
        try (InputStream in = BuildFacts.class.getResourceAsStream(RESOURCE)) {
            if (in != null) {
                properties.load(in);
            }
        } catch (IOException e) {
            // an unreadable resource reads as unknown facts, as a missing one does
        }
        return properties;
    }
}
