package dev.gantry.model;

import java.time.Instant;
import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * What Gantry remembers of a workflow run, with what it ran from, so that a run can be resumed, and explained, from
 * the state database alone.
 *
 * @param id Gantry's run id
 * @param name the workflow's name
 * @param specFile the spec file it came from
 * @param specHash the hash of the spec as run: a changed spec is a new run, not the resumption of an old one
 * @param gitCommit the commit of the repository the spec file is in, if it is in one
 * @param gitDirty whether that repository had uncommitted changes, if it is in one
 * @param catalogSource where the catalog the run was placed with came from
 * @param catalogDate that catalog's date
 * @param gantryVersion the Gantry that started the run
 * @param backend the backend name
 * @param state where the run stands
 * @param message why it stands there, if there is something to say
 * @param createdAt when it was started
 * @param updatedAt when it last changed
 * @param endedAt when it ended, once finished
 */
public record RunRecord(
        String id,
        String name,
        String specFile,
        String specHash,
        Optional<String> gitCommit,
        Optional<Boolean> gitDirty,
        String catalogSource,
        LocalDate catalogDate,
        String gantryVersion,
        String backend,
        RunState state,
        Optional<String> message,
        Instant createdAt,
        Instant updatedAt,
        Optional<Instant> endedAt) {

    /**
     * Checks that every component is given.
     *
     * @param id the run id
     * @param name the workflow's name
     * @param specFile the spec file
     * @param specHash the spec's hash
     * @param gitCommit the commit, or empty
     * @param gitDirty whether uncommitted, or empty
     * @param catalogSource the catalog's source
     * @param catalogDate the catalog's date
     * @param gantryVersion the Gantry version
     * @param backend the backend's name
     * @param state the state
     * @param message the message, or empty
     * @param createdAt when started
     * @param updatedAt when last changed
     * @param endedAt when ended, or empty
     * @throws NullPointerException when a component is null
     */
    public RunRecord {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(specFile, "specFile");
        Objects.requireNonNull(specHash, "specHash");
        Objects.requireNonNull(gitCommit, "gitCommit");
        Objects.requireNonNull(gitDirty, "gitDirty");
        Objects.requireNonNull(catalogSource, "catalogSource");
        Objects.requireNonNull(catalogDate, "catalogDate");
        Objects.requireNonNull(gantryVersion, "gantryVersion");
        Objects.requireNonNull(backend, "backend");
        Objects.requireNonNull(state, "state");
        Objects.requireNonNull(message, "message");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(updatedAt, "updatedAt");
        Objects.requireNonNull(endedAt, "endedAt");
    }
}
