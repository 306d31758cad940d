package dev.gantry.api.backend;

import java.util.Objects;

/** A job as its backend knows it: the backend's name and the backend's own id for the job. */
public record JobRef(String backend, String id) {
    public JobRef {
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(id, "id");
    }

    @Override
    public String toString() {
        return backend + ":" + id;
    }
}
