package dev.gantry.backend.cyclecloud.internal.login;

import dev.gantry.ssh.ShellQuoting;
import java.util.List;

/**
 * What every scheduler's batch script starts with and shares: the interpreter, the scheduler's directives, the line
 * that says what the script is, and the job's directory; and the rank script before the scheduler's body.
 */
public final class JobScripts {
    private static final String RANK = LoginScript.resource(LoginScript.class, "rank.sh");

    private JobScripts() {
    }

    /** The first lines of a job's own head; the scheduler appends its own assignments. */
    public static StringBuilder head(List<String> directives, String jobId, String jobDirectory) {
        StringBuilder text = new StringBuilder("#!/bin/bash\n");
        for (String line : directives) {
            text.append(line).append('\n');
        }
        text.append("# Gantry job ").append(jobId).append(". Written by Gantry: the workload's variables and secrets "
                + "are in ./env (mode 0600), never in this script.\n");
        text.append("job_dir=").append(ShellQuoting.quote(jobDirectory)).append('\n');
        return text;
    }

    /** The part every job of a scheduler shares: the rank script as {@code $rank_script}, then the body. */
    public static String common(String body) {
        return "rank_script=" + ShellQuoting.quote(RANK) + "\n" + body;
    }
}
