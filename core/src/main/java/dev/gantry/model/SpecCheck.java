package dev.gantry.model;

import dev.gantry.api.Problem;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What checking one spec file found: its problems (empty when it is valid) and, for a valid one, what it is. A
 * workflow's job count counts every instance of every step, its matrices expanded, so a user sees how many jobs a
 * run would submit before it does.
 *
 * @param document what the file holds, when it is valid; empty otherwise
 * @param problems every problem found with its location; empty when valid
 */
public record SpecCheck(Optional<SpecDocument> document, List<Problem> problems) {
    /**
     * Copies the problems.
     *
     * @param document the document, or empty
     * @param problems the problems, copied
     * @throws NullPointerException when a component is null
     */
    public SpecCheck {
        Objects.requireNonNull(document, "document");
        problems = List.copyOf(problems);
    }

    /** {@return whether the file has no problem} */
    public boolean valid() {
        return problems.isEmpty();
    }

    /** {@return the jobs a run of a valid workflow would submit; empty for a workload or an invalid spec} */
    public OptionalInt workflowJobs() {
        return document.filter(d -> d instanceof SpecDocument.WorkflowSpec)
                .map(d -> OptionalInt.of(((SpecDocument.WorkflowSpec) d).workflow().steps().stream()
                        .mapToInt(step -> step.instances().size()).sum()))
                .orElse(OptionalInt.empty());
    }
}
