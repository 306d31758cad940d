package dev.gantry.ssh;

import java.nio.charset.StandardCharsets;
import java.util.Arrays;

/**
 * What a finished command left: its exit code and everything it wrote. A remote command's, and also a local
 * process's where the host module runs the same job scripts on this machine.
 *
 * @param exitCode the command's exit status; -1 when it was ended by a signal and the server sent no status
 */
public record RemoteResult(int exitCode, byte[] stdout, byte[] stderr) {

    public RemoteResult {
        stdout = stdout.clone();
        stderr = stderr.clone();
    }

    @Override
    public byte[] stdout() {
        return stdout.clone();
    }

    @Override
    public byte[] stderr() {
        return stderr.clone();
    }

    public String stdoutText() {
        return new String(stdout, StandardCharsets.UTF_8);
    }

    public String stderrText() {
        return new String(stderr, StandardCharsets.UTF_8);
    }

    public boolean succeeded() {
        return exitCode == 0;
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof RemoteResult that && exitCode == that.exitCode
                && Arrays.equals(stdout, that.stdout) && Arrays.equals(stderr, that.stderr);
    }

    @Override
    public int hashCode() {
        return 31 * (31 * exitCode + Arrays.hashCode(stdout)) + Arrays.hashCode(stderr);
    }

    /** Sizes only: output may hold anything, secrets included. */
    @Override
    public String toString() {
        return "RemoteResult[exitCode=" + exitCode + ", stdout=" + stdout.length + " bytes, stderr="
                + stderr.length + " bytes]";
    }
}
