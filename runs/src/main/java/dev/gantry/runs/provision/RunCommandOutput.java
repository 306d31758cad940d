package dev.gantry.runs.provision;

import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What a Linux {@code RunShellScript} Run Command printed, split out of the one status message Azure returns for it:
 * {@code "Enable succeeded: \n[stdout]\nOUT\n[stderr]\nERR\n"} (the VM agent's text, each stream cut to its last
 * 4 KiB). A pure function of that text, so that every shape Azure answers with is a golden test.
 *
 * @param stdout what the script wrote to standard output
 * @param stderr what it wrote to standard error
 * @param status the agent's own line before the streams ({@code Enable succeeded}, {@code Enable failed}, ...)
 */
public record RunCommandOutput(String stdout, String stderr, String status) {
    static final String STDOUT = "[stdout]";
    static final String STDERR = "[stderr]";

    public RunCommandOutput {
        Objects.requireNonNull(stdout, "stdout");
        Objects.requireNonNull(stderr, "stderr");
        Objects.requireNonNull(status, "status");
    }

    /**
     * Reads the streams from the result's messages (the first one that has a {@code [stdout]} section; Linux
     * results have exactly one); empty when none has, which means the script did not run.
     */
    public static Optional<RunCommandOutput> parse(List<String> messages) {
        for (String message : messages) {
            if (message == null) {
                continue;
            }
            String text = message.replace("\r\n", "\n");
            int out = text.indexOf(STDOUT);
            if (out < 0) {
                continue;
            }
            String status = text.substring(0, out).strip();
            if (status.endsWith(":")) {
                status = status.substring(0, status.length() - 1);
            }
            int outStart = skipNewline(text, out + STDOUT.length());
            int err = text.indexOf("\n" + STDERR, outStart - 1);
            String stdout;
            String stderr = "";
            // The agent writes "[stdout]\n" OUT "\n[stderr]\n" ERR: the newline before [stderr] is its own.
            if (err < 0) {
                stdout = trimNewline(text.substring(outStart));
            } else {
                stdout = text.substring(outStart, Math.max(outStart, err));
                stderr = trimNewline(text.substring(skipNewline(text, err + 1 + STDERR.length())));
            }
            return Optional.of(new RunCommandOutput(stdout, stderr, status));
        }
        return Optional.empty();
    }

    private static int skipNewline(String text, int at) {
        return at < text.length() && text.charAt(at) == '\n' ? at + 1 : at;
    }

    private static String trimNewline(String text) {
        return text.endsWith("\n") ? text.substring(0, text.length() - 1) : text;
    }
}
