package dev.gantry.hosts.jobs;

import java.time.Instant;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.OptionalLong;

/**
 * The files of one job directory as read at one moment, plus whether its process is alive: all that status needs.
 *
 * @param program the job's program (from job.json), empty when the record is unreadable
 * @param launched the submit got as far as starting the wrapper ({@code launched} marker or {@code pid} present)
 * @param pid the wrapper's pid once it recorded it
 * @param alive the pid is alive and still our process
 * @param exitCode the recorded exit code
 * @param cancelled the cancel marker exists
 * @param preempted the eviction marker's reason, when it exists
 * @param started when the wrapper started
 * @param ended when the command ended (or the marker was written)
 */
public record JobSnapshot(String program, boolean launched, OptionalLong pid, boolean alive, OptionalInt exitCode,
                          boolean cancelled, Optional<String> preempted, Optional<Instant> started,
                          Optional<Instant> ended) {
}
