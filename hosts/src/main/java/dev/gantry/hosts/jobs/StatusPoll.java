package dev.gantry.hosts.jobs;

import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.hosts.events.EvictionWatch;
import dev.gantry.hosts.events.ScheduledEvent;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.BiConsumer;
import java.util.function.Supplier;

/**
 * One status poll of jobs on one host: maps each job's files to a status and, while some of them run on a host that
 * may be a spot VM, asks the host's Scheduled Events once. A Preempt event for the host evicts every job running
 * there, polled or not (SIGTERM so each can checkpoint, then PREEMPTED with the event in its message): the VM takes
 * them all down, and a job nobody polled would otherwise lose everything since its last checkpoint.
 */
public final class StatusPoll {
    private final EvictionWatch watch;
    private final BiConsumer<JobRef, String> preempt;
    private final Supplier<Map<JobRef, JobDirectory>> everyJob;

    /**
     * @param preempt evicts one job with a reason: writes its marker and stops it after the grace period
     * @param everyJob every job on the host; read only when the host is being evicted
     */
    public StatusPoll(EvictionWatch watch, BiConsumer<JobRef, String> preempt,
               Supplier<Map<JobRef, JobDirectory>> everyJob) {
        this.watch = watch;
        this.preempt = preempt;
        this.everyJob = everyJob;
    }

    public Map<JobRef, JobStatus> statuses(Map<JobRef, JobDirectory> jobs) {
        Map<JobRef, JobStatus> result = new LinkedHashMap<>();
        jobs.forEach((ref, job) -> result.put(ref, map(job)));
        List<JobRef> running = result.entrySet().stream().filter(e -> e.getValue().state() == JobState.RUNNING)
                .map(Map.Entry::getKey).toList();
        if (running.isEmpty() || !watch.watching()) {
            return result;
        }
        EvictionWatch.Check check = watch.check();
        if (check.preemption().isPresent()) {
            ScheduledEvent event = check.preemption().get();
            List<JobRef> evicted = new ArrayList<>(running);
            everyJob.get().forEach((ref, job) -> {
                if (!jobs.containsKey(ref) && map(job).state() == JobState.RUNNING) {
                    evicted.add(ref);
                }
            });
            evict(evicted, event.describe());
            Optional<String> acknowledgement = watch.acknowledge(event);
            for (JobRef ref : running) {
                JobStatus status = map(jobs.get(ref));
                result.put(ref, acknowledgement.map(problem -> note(status, problem)).orElse(status));
            }
        } else if (check.problem().isPresent()) {
            // The jobs still run; say why their eviction could not be watched instead of failing the poll.
            running.forEach(ref -> result.put(ref, note(result.get(ref), check.problem().get())));
        }
        return result;
    }

    public JobStatus map(JobDirectory job) {
        return StatusMapping.map(job.snapshot(), watch.spotHost());
    }

    /** Every job gets its SIGTERM at once: one job's grace period must not eat into the next one's. */
    private void evict(List<JobRef> running, String reason) {
        if (running.size() == 1) {
            preempt.accept(running.get(0), reason);
            return;
        }
        List<Thread> threads = new ArrayList<>();
        List<RuntimeException> failures = Collections.synchronizedList(new ArrayList<>());
        for (JobRef ref : running) {
            Thread thread = new Thread(() -> {
                try {
                    preempt.accept(ref, reason);
                } catch (RuntimeException e) {
                    failures.add(e);
                }
            }, "gantry-evict-" + ref.id());
            thread.start();
            threads.add(thread);
        }
        for (Thread thread : threads) {
            try {
                thread.join();
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                return;
            }
        }
        if (!failures.isEmpty()) {
            throw failures.get(0); // as if the jobs had been evicted one by one: the first failure stops the poll
        }
    }

    private static JobStatus note(JobStatus status, String note) {
        return new JobStatus(status.state(), status.exitCode(), status.message() + " (" + note + ")",
                status.startedAt(), status.endedAt());
    }
}
