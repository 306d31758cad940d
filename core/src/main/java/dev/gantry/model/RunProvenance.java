package dev.gantry.model;

import java.time.LocalDate;
import java.util.Objects;
import java.util.Optional;

/**
 * What a run was made from, recorded with it so that a report months later can say exactly what ran: the content
 * hash of the spec and of every file it references, the git commit of the spec's checkout (and whether it had
 * changes not committed), the catalog the plans came from, and the Gantry version.
 */
public record RunProvenance(String specHash, Optional<String> gitCommit, Optional<Boolean> gitDirty,
        String catalogSource, LocalDate catalogDate, String gantryVersion) {

    public RunProvenance {
        Objects.requireNonNull(specHash, "specHash");
        Objects.requireNonNull(gitCommit, "gitCommit");
        Objects.requireNonNull(gitDirty, "gitDirty");
        Objects.requireNonNull(catalogSource, "catalogSource");
        Objects.requireNonNull(catalogDate, "catalogDate");
        Objects.requireNonNull(gantryVersion, "gantryVersion");
    }
}
