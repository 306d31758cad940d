package dev.gantry.backend.cyclecloud.internal;

import java.time.Duration;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * What the batch-script headers of every scheduler dialect share: their directive prefix ({@code #SBATCH},
 * {@code #$}, {@code #PBS}) before each option, and the checks of the values they carry. A scheduler reads a
 * directive line as shell words, so a value with a blank, a quote or a newline would change the line's meaning: a
 * value is one word of a safe alphabet. Each dialect's directives record renders its own options and keeps its own
 * name rules; this holds what they would otherwise each write again.
 *
 * @param prefix what starts each line
 */
public record DirectiveHeader(String prefix) {
    public static final DirectiveHeader SBATCH = new DirectiveHeader("#SBATCH");
    public static final DirectiveHeader QSUB = new DirectiveHeader("#$");
    public static final DirectiveHeader PBS = new DirectiveHeader("#PBS");

    private static final Pattern WORD = Pattern.compile("[A-Za-z0-9._:@%+=/,-]+");

    /** The options as header lines, in their order. */
    public List<String> lines(List<String> options) {
        return options.stream().map(option -> prefix + " " + option).toList();
    }

    /** Checks that {@code value} is one word a directive line can carry; the message names {@code field}. */
    public void word(String field, String value) {
        if (!WORD.matcher(value).matches()) {
            throw new IllegalArgumentException(field + " '" + value + "' is not one word of letters, digits and "
                    + "._:@%+=/,-, which a " + prefix + " line can carry");
        }
    }

    /** Checks the job's directory: one word, and an absolute path (the scheduler has no working directory to add). */
    public void jobDirectory(String jobDirectory) {
        word("jobDirectory", jobDirectory);
        if (!jobDirectory.startsWith("/")) {
            throw new IllegalArgumentException("jobDirectory is an absolute path: " + jobDirectory);
        }
    }

    /** Checks that a limit, if there is one, is positive; {@code what} names it ({@code a time limit}). */
    public static void positive(String what, Optional<Duration> limit) {
        limit.ifPresent(t -> {
            if (t.isNegative() || t.isZero()) {
                throw new IllegalArgumentException(what + " is positive: " + t);
            }
        });
    }

    /** The limit in whole seconds, rounded up: a scheduler's limits count seconds, and a limit never shrinks. */
    public static long seconds(Duration limit) {
        return limit.getSeconds() + (limit.getNano() > 0 ? 1 : 0);
    }

    /** {@code HH:MM:SS}, hours past 24 included (Grid Engine's {@code h_rt}, PBS's {@code walltime}), rounded up. */
    public static String clock(Duration limit) {
        return clock(seconds(limit));
    }

    /** {@code HH:MM:SS} of a number of seconds, hours past 24 included. */
    public static String clock(long seconds) {
        return String.format(Locale.ROOT, "%02d:%02d:%02d", seconds / 3600, seconds % 3600 / 60, seconds % 60);
    }
}
