package dev.gantry.hosts.jobs;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.Host;
import dev.gantry.ssh.RemoteResult;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

/**
 * Prepares a job directory and starts the job in it with one command on its host, local or remote: a fixed script
 * ({@code job-launch.sh}) whose inputs are its positional parameters and stdin, so no path or user value is part of
 * shell text. In that one command it:
 * <ol>
 *   <li>refuses a job whose working directory is missing, before anything is written;</li>
 *   <li>creates the directory and writes the record and the rank's placement unless an earlier attempt did;</li>
 *   <li>takes the directory's launch lock and does nothing more when the job was launched or ended already, so a
 *       retried or concurrent submit never starts it twice or writes its secrets again;</li>
 *   <li>stores the environment from stdin in a 0600 file, and a container's 0600 env file beside it;</li>
 *   <li>starts {@link JobWrapper} in a new session, detached, records {@code launched} and, once the job leads its
 *       own session, its {@code pgid} and {@code pid} (the session's id, which the wrapper records as well), so the
 *       job is RUNNING when the command returns.</li>
 * </ol>
 * A warm submit is then one scan and this command; every look the backend took one command for before is folded in.
 */
public final class JobLauncher {
    /** What the command did. */
    public enum Outcome {
        /** The directory and its records are in place; nothing was started (a prepare-only call). */
        PREPARED,
        /** The job was started in its own session. */
        STARTED,
        /** An earlier or concurrent submit launched it, or it was cancelled before it started: nothing new ran. */
        ALREADY_LAUNCHED,
        /** The required directory does not exist on the host; nothing was written. */
        MISSING_DIRECTORY
    }

    private static final String SCRIPT = load();
    /** Long enough for the lock wait (20 s at most) and the pid wait together. */
    private static final Duration SLACK = Duration.ofSeconds(30);

    private JobLauncher() {
    }

    public static String script() {
        return SCRIPT;
    }

    /**
     * Runs the launch on the host.
     *
     * @throws GantryException BACKEND_UNAVAILABLE when the job could not be started or did not start in time (the
     *     message quotes the launcher's log; status says later whether it started after all), REMOTE_ERROR when the
     *     host could not be reached
     */
    public static Outcome launch(Host host, JobLaunch launch) {
        byte[] environment = launch.start().map(JobLauncher::environmentFile).orElse(new byte[0]);
        byte[] privateFile = launch.start().flatMap(JobLaunch.Start::privateFile)
                .map(f -> f.text().getBytes(StandardCharsets.UTF_8)).orElse(new byte[0]);
        List<String> argv = argv(host, launch, environment.length, privateFile.length);
        ByteArrayOutputStream stdin = new ByteArrayOutputStream();
        stdin.writeBytes(environment);
        stdin.writeBytes(privateFile);
        Duration wait = launch.start().map(JobLaunch.Start::startWait).orElse(Duration.ZERO);
        RemoteResult result = host.exec(argv, Optional.of(stdin.toByteArray()), wait.plus(SLACK));
        String output = result.stdoutText();
        String first = output.lines().findFirst().orElse("");
        if (!result.succeeded()) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "could not start " + launch.directory() + " on "
                    + host.name() + ": " + result.stderrText().strip() + " (exit " + result.exitCode() + ")");
        }
        return switch (first) {
            case "PREPARED" -> Outcome.PREPARED;
            case "STARTED" -> Outcome.STARTED;
            case "ALREADY" -> Outcome.ALREADY_LAUNCHED;
            case "MISSING_DIRECTORY" -> Outcome.MISSING_DIRECTORY;
            case "NOT_STARTED" -> {
                String log = output.substring(output.indexOf('\n') + 1).strip();
                throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "job " + launch.directory() + " on "
                        + host.name() + " did not start within " + wait.toSeconds() + "s"
                        + (log.isEmpty() ? "" : ": " + log) + "; status will say whether it started later");
            }
            default -> throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "the launch of " + launch.directory()
                    + " on " + host.name() + " answered '" + first + "' (" + result.stderrText().strip() + ")");
        };
    }

    /** The environment file the loader sources: {@code NAME='value'} lines, each value quoted whole. */
    static byte[] environmentFile(JobLaunch.Start start) {
        return JobVariables.environmentFile(start.environment());
    }

    static List<String> argv(Host host, JobLaunch launch, int environmentBytes, int privateBytes) {
        Optional<JobLaunch.Start> start = launch.start();
        List<String> argv = new ArrayList<>(List.of("sh", "-c", SCRIPT, "gantry-launch", launch.directory(),
                launch.record().toJson(), launch.placement().orElse(""), start.isPresent() ? "1" : "0",
                start.map(JobLaunch.Start::launchDirectory).orElse(""),
                start.flatMap(JobLaunch.Start::requiredDirectory).orElse(""), Integer.toString(environmentBytes),
                start.flatMap(JobLaunch.Start::privateFile).map(JobLaunch.PrivateFile::name).orElse(""),
                Integer.toString(privateBytes),
                start.map(s -> s.launchedAt().toString()).orElse(""),
                Long.toString(start.map(s -> s.startWait().toMillis() / 20).orElse(0L)), host.sessionLeader()));
        start.ifPresent(s -> argv.addAll(JobWrapper.launchArgv(List.of(), launch.directory(), s.command())));
        return argv;
    }

    private static String load() {
        try (InputStream in = JobLauncher.class.getResourceAsStream("job-launch.sh")) {
            if (in == null) {
                throw new IllegalStateException("job-launch.sh is missing from the gantry-hosts jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
