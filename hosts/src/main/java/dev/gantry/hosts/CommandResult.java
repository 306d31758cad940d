package dev.gantry.hosts;

import java.nio.charset.StandardCharsets;

/**
 * How a short command on a host ended: its exit status and what it printed.
 *
 * @param exitCode the command's exit status
 * @param stdout its standard output, whole
 * @param stderr its standard error as text, for messages
 */
public record CommandResult(int exitCode, byte[] stdout, String stderr) {
    public boolean succeeded() {
        return exitCode == 0;
    }

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }
}
