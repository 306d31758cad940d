package dev.gantry.model;

import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run was made from, recorded with it so that a report months later can say exactly what ran: the content
 * hash of the spec and of every file it references, the git commit of the spec's checkout (and whether it had
 * changes not committed), the catalog the plans came from, and the Gantry version.
 *
 * @param specHash the hash of the spec and the files it references
 * @param gitCommit the commit of the spec's checkout; empty outside a git repository
 * @param gitDirty whether that checkout had uncommitted changes; empty outside a git repository
 * @param catalogSource where the plans' catalog came from
 * @param catalogDate that catalog's date
 * @param gantryVersion the Gantry version, e.g. {@code 0.1.0}
 */
public record RunProvenance(String specHash, Optional<String> gitCommit, Optional<Boolean> gitDirty,
        String catalogSource, LocalDate catalogDate, String gantryVersion) {

    /**
     * Checks that every component is given.
     *
     * @param specHash the spec's hash
     * @param gitCommit the commit, or empty
     * @param gitDirty whether uncommitted, or empty
     * @param catalogSource the catalog's source
     * @param catalogDate the catalog's date
     * @param gantryVersion the version
     * @throws NullPointerException when a component is null
     */
    public RunProvenance {
        Objects.requireNonNull(specHash, "specHash");
        Objects.requireNonNull(gitCommit, "gitCommit");
        Objects.requireNonNull(gitDirty, "gitDirty");
        Objects.requireNonNull(catalogSource, "catalogSource");
        Objects.requireNonNull(catalogDate, "catalogDate");
        Objects.requireNonNull(gantryVersion, "gantryVersion");
    }
}
