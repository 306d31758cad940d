package dev.gantry.backend.aks.internal.submit;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.Submission;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.function.Function;

/**
 * {@code submitAll}: the submissions run with at most {@value #IN_FLIGHT} at a time, so at most that many requests
 * are in flight (each submission sends its requests one after another); the references come back in order, and the
 * first failure in order is thrown once all have ended, since each carries its own idempotency key to retry with.
 */
public final class ParallelSubmit {
    public static final int IN_FLIGHT = 8;

    private ParallelSubmit() {
    }

    public static List<JobRef> submitAll(Function<Submission, JobRef> submit, List<Submission> submissions) {
        if (submissions.size() <= 1) {
            return submissions.stream().map(submit).toList();
        }
        ExecutorService pool = Executors.newFixedThreadPool(Math.min(IN_FLIGHT, submissions.size()), runnable -> {
            Thread thread = new Thread(runnable, "gantry-aks-submit");
            thread.setDaemon(true);
            return thread;
        });
        try {
            List<Future<JobRef>> futures = new ArrayList<>();
            for (Submission submission : submissions) {
                futures.add(pool.submit(() -> submit.apply(submission)));
            }
            List<JobRef> refs = new ArrayList<>(futures.size());
            RuntimeException first = null;
            for (Future<JobRef> future : futures) {
                try {
                    refs.add(future.get());
                } catch (ExecutionException e) {
                    first = first != null ? first : e.getCause() instanceof RuntimeException r ? r
                            : new GantryException(ErrorCode.INTERNAL, "submit failed: " + e.getCause());
                }
            }
            if (first != null) {
                throw first;
            }
            return refs;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.INTERNAL, "submitting was interrupted; submit again with the same "
                    + "keys to finish");
        } finally {
            pool.shutdownNow();
        }
    }
}
