package dev.gantry.hosts.events;

import java.time.Duration;
import java.util.List;

/**
 * What reading Scheduled Events needs of a host: its name for messages and a way to run one short command there
 * (IMDS answers only from inside the VM). The backend's hosts provide it, so this package does not depend on them.
 */
public interface MetadataHost {
    String name();

    /** Runs a short command with stdin closed and returns its standard output. */
    String run(List<String> argv, Duration timeout);
}
