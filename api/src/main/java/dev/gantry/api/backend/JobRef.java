package dev.gantry.api.backend;

import java.util.Objects;

/**
 * A job as its backend knows it: the backend's name and the backend's own id for the job.
 *
 * @param backend the backend's name, e.g. {@code cyclecloud}
 * @param id the backend's own id, e.g. a Slurm job number or a Kubernetes Job name; opaque to core
 */
public record JobRef(String backend, String id) {
    /**
     * Checks that both components are given.
     *
     * @param backend the backend's name
     * @param id the backend's id
     * @throws NullPointerException when a component is null
     */
    public JobRef {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String toString() {
        return backend + ":" + id;
    }
}
