package dev.gantry.hosts.jobs;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * The fixed shell script every job runs under, and the argv that launches it. The user's argv is passed as the
 * script's positional parameters and run as {@code "$@"}: it is never part of shell text, so each element arrives
 * verbatim whatever it contains. The script:
 * <ol>
 *   <li>claims the job with an atomic {@code mkdir}, so a second launch of the same job (a retried submit racing a
 *       slow first one) exits at once;</li>
 *   <li>records {@code started}, {@code pgid} and {@code pid} (pid last: once it exists the others do; setsid made
 *       this shell the leader of a new session, so its pid is the process group id);</li>
 *   <li>stops if the job was cancelled or evicted before it started: cancel writes its marker before reading
 *       {@code pgid}, the wrapper writes {@code pgid} before looking for markers, so one of them sees the other;</li>
 *   <li>runs the command with stdin from /dev/null and stdout/stderr into the job directory;</li>
 *   <li>deletes the container env file as soon as the command (the container runtime's client) has ended, and when
 *       it stops before starting: the file holds secrets and must not outlive the job;</li>
 *   <li>records {@code ended} and then {@code exit}, each by rename so a reader never sees half a file.</li>
 * </ol>
 * A signal that ends the shell leaves no exit file: status then comes from the cancel or eviction marker.
 */
public final class JobWrapper {
    /** {@code $0} of the wrapper shell, which is what {@code ps} shows. */
    public static final String SHELL_NAME = "gantry-job";

    private static final String SCRIPT = load();

    private JobWrapper() {
    }

    public static String script() {
        return SCRIPT;
    }

    /** The launch argv: session leader, {@code /bin/sh -c SCRIPT gantry-job JOB_DIR ARGV...}. */
    public static List<String> launchArgv(List<String> sessionLeader, String jobDirectory, List<String> command) {
        List<String> argv = new ArrayList<>(sessionLeader);
        argv.add("/bin/sh");
        argv.add("-c");
        argv.add(SCRIPT);
        argv.add(SHELL_NAME);
        argv.add(jobDirectory);
        argv.addAll(command);
        return argv;
    }

    private static String load() {
        try (InputStream in = JobWrapper.class.getResourceAsStream("job-wrapper.sh")) {
            if (in == null) {
                throw new IllegalStateException("job-wrapper.sh is missing from the gantry-hosts jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
