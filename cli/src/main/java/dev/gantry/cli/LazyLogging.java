package dev.gantry.cli;

/**
 * Configures java.util.logging when it starts, through its {@code java.util.logging.config.class} hook, so that a
 * process that never logs never pays for starting it. Only for a process's entry point: a logging system already
 * started (by an earlier invocation in the same JVM, or a test harness) never asks the hook again.
 */
public final class LazyLogging {
    private static volatile Runnable configuration = () -> { };

    /** Called by java.util.logging's LogManager, once, when logging starts: applies the pending configuration. */
    public LazyLogging() {
        configuration.run();
    }

    static void configureOnFirstUse(Runnable configure) {
        configuration = configure;
        System.setProperty("java.util.logging.config.class", LazyLogging.class.getName());
    }
}
