package dev.gantry.benchmarks;

import dev.gantry.api.backend.JobRef;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashSet;
import java.util.List;
import java.util.Locale;

/**
 * What a benchmark verifies of the work it timed: a rate of submits that did not all happen, or of a poll that did not
 * answer for every job, is no figure. Each check that fails is recorded with what was missing; after its clean-up the
 * benchmark {@link #exitIfFailed exits} non-zero, which fails the test command. (Its targets, by contrast, are
 * reported, not failed on: rates move with the machine's load; the work done does not.)
 */
final class WorkCheck {
    private final List<String> failures = new ArrayList<>();
    private int passed;

    /** Checks that {@code actual} is {@code expected}, {@code what} saying what was counted. */
    void count(String what, long expected, long actual) {
        if (actual == expected) {
            passed++;
        } else {
            long gap = expected - actual;
            fail(String.format(Locale.ROOT, "%s: %,d, expected %,d (%,d %s)", what, actual, expected, Math.abs(gap),
                    gap > 0 ? "missing" : "too many"));
        }
    }

    /** Checks that {@code actual} is at most {@code limit} (a count of calls with a ceiling). */
    void atMost(String what, long limit, long actual) {
        bounded(actual <= limit, String.format(Locale.ROOT, "%s: %,d, at most %,d expected", what, actual, limit));
    }

    /** Checks that {@code actual} is at least {@code floor} (a count of calls the work cannot do with fewer). */
    void atLeast(String what, long floor, long actual) {
        bounded(actual >= floor, String.format(Locale.ROOT, "%s: %,d, at least %,d expected", what, actual,
                floor));
    }

    private void bounded(boolean held, String failure) {
        if (held) {
            passed++;
        } else {
            fail(failure);
        }
    }

    /** Checks that a submit of {@code expected} jobs returned as many references, each a different job. */
    void refs(String what, int expected, Collection<JobRef> refs) {
        count(what + ": job references returned", expected, refs.size());
        count(what + ": different jobs among them", expected, new HashSet<>(refs).size());
    }

    /** Records a failed check, and prints it at once: a clean-up that fails after it must not hide it. */
    void fail(String failure) {
        failures.add(failure);
        System.err.println("check failed: " + failure);
    }

    /** Prints the outcome; exits 1 when a check failed, so that the figures above are not taken as measured. */
    void exitIfFailed(String benchmark) {
        if (failures.isEmpty()) {
            System.out.printf("checks: %d passed: every job and record counted was there%n", passed);
            return;
        }
        System.out.flush();
        System.err.println(benchmark + ": " + failures.size() + " check(s) failed (each printed above as \"check "
                + "failed\"): the work it timed was not all done, so its figures do not count");
        System.exit(1);
    }
}
