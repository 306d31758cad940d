package dev.gantry.hosts.jobs;

import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@link JobLauncher} needs to prepare one job directory and, optionally, start the job in it.
 *
 * @param directory the job's directory on its host
 * @param record the job's record, written when the directory has none
 * @param placement the rank's placement line ({@link RankPlacement#line()}), written when it has none
 * @param start what to start; empty: prepare the directory only (a multi-host submit records every rank first)
 */
public record JobLaunch(String directory, JobRecord record, Optional<String> placement, Optional<Start> start) {
    public JobLaunch {
        Objects.requireNonNull(directory, "directory");
        Objects.requireNonNull(record, "record");
        Objects.requireNonNull(placement, "placement");
        Objects.requireNonNull(start, "start");
    }

    /**
     * @param command the job's argv (the workload's, or the container runtime's command line)
     * @param launchDirectory where it starts; empty: the host user's home directory
     * @param requiredDirectory a directory that must exist, checked before anything is written (the workload's
     *     working directory when it runs on the host, not in a container)
     * @param environment the started process's own variables: they travel on stdin into a 0600 file that the loader
     *     sources and deletes before the job runs, never on a command line
     * @param privateFile a file of the job directory to write with mode 0600 in the same step, only when the job is
     *     started (a container's env file, which holds the job's secrets)
     * @param launchedAt the time recorded in the {@code launched} marker
     * @param startWait how long the command waits for the job to lead its own session
     */
    public record Start(List<String> command, String launchDirectory, Optional<String> requiredDirectory,
                        Map<String, String> environment, Optional<PrivateFile> privateFile, Instant launchedAt,
                        Duration startWait) {
        public Start {
            command = List.copyOf(command);
            environment = Map.copyOf(environment);
            Objects.requireNonNull(launchDirectory, "launchDirectory");
            Objects.requireNonNull(requiredDirectory, "requiredDirectory");
            Objects.requireNonNull(privateFile, "privateFile");
            Objects.requireNonNull(launchedAt, "launchedAt");
            if (startWait.compareTo(Duration.ofMillis(20)) < 0) {
                throw new IllegalArgumentException("a launch waits for the job to start, at least 20 ms: "
                        + startWait);
            }
        }
    }

    /** A file name inside the job directory and its text. */
    public record PrivateFile(String name, String text) {
        public PrivateFile {
            if (name.isEmpty() || name.contains("/")) {
                throw new IllegalArgumentException("a private file is named inside the job directory: " + name);
            }
        }
    }
}
