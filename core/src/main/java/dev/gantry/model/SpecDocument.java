package dev.gantry.model;

import dev.gantry.api.Workload;
import java.nio.file.Path;
import java.util.List;
import java.util.Objects;

/**
 * What a spec file holds: one workload ({@code kind: Workload}) or a workflow of steps ({@code kind: Workflow}).
 * Commands that take either ({@code gantry run SPEC}, {@code gantry validate}) switch over the two records.
 */
public sealed interface SpecDocument permits SpecDocument.WorkloadSpec, SpecDocument.WorkflowSpec {

    /** The name in {@code metadata.name}. */
    String name();

    record WorkloadSpec(Workload workload) implements SpecDocument {
        public WorkloadSpec {
            Objects.requireNonNull(workload, "workload");
        }

        @Override
        public String name() {
            return workload.name();
        }
    }

    /** A workflow and the workload spec files its steps name ({@code file:}), absolute, in the order read. */
    record WorkflowSpec(WorkflowDefinition workflow, List<Path> referencedFiles) implements SpecDocument {
        public WorkflowSpec {
            Objects.requireNonNull(workflow, "workflow");
            referencedFiles = List.copyOf(Objects.requireNonNull(referencedFiles, "referencedFiles"));
        }

        @Override
        public String name() {
            return workflow.name();
        }
    }
}
