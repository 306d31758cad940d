package dev.gantry.cli;

import java.util.List;
import java.util.regex.Pattern;

/**
 * What differs between two runs of the same command, masked so that a README's transcript and a fresh run compare
 * equal: run and job ids, clock times and dates, durations and costs so far, hashes of the spec and commit (and
 * whether the checkout has changes), process groups, the temporary directory, and column alignment.
 */
final class OutputMask {
    private record Rule(Pattern pattern, String replacement) {
    }

    private static final List<Rule> RULES = List.of(
            rule("\\d{8}-\\d{6}-[0-9a-f]{6}", "RUNID"),
            rule("\\b[A-Z][a-z]{2}, \\d{2} [A-Z][a-z]{2} \\d{4} \\d{2}:\\d{2}:\\d{2} GMT", "HTTPDATE"),
            rule("\\b\\d{2}:\\d{2}:\\d{2}\\b", "TIME"),
            rule("\\b\\d{4}-\\d{2}-\\d{2}\\b", "DATE"),
            rule("\\b\\d+ days? (ago|before)", "N days $1"),
            rule("sha256:[0-9a-f]{12,64}", "sha256:HASH"),
            rule("\\b(commit|git) [0-9a-f]{7,40}( with uncommitted changes| with changes not committed| \\(clean\\))?",
                    "$1 HASH"),
            rule("process group \\d+", "process group PID"),
            rule("(\\s)(\\d+\\.\\d+s|<1s)(\\s)", "$1DURATION$3"),
            rule("\\$\\d+\\.\\d{4}( so far|\\s)", "\\$COST$1"),
            rule("(/[^\\s/]+)*/(gantry-[a-z-]+)/", "TMP/$2/"),
            rule("\\s+", " "));

    private OutputMask() {
    }

    private static Rule rule(String regex, String replacement) {
        return new Rule(Pattern.compile(regex), replacement);
    }

    static String mask(String line) {
        String masked = line;
        for (Rule rule : RULES) {
            masked = rule.pattern().matcher(masked).replaceAll(rule.replacement());
        }
        return masked.strip();
    }
}
