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

    /** {@return the name in {@code metadata.name}} */
    String name();

    /**
     * A spec of {@code kind: Workload}.
     *
     * @param workload the workload it holds
     */
    record WorkloadSpec(Workload workload) implements SpecDocument {
        /**
         * Checks that the workload is given.
         *
         * @param workload the workload
         * @throws NullPointerException when {@code workload} is null
         */
        public WorkloadSpec {
            Objects.requireNonNull(workload, "workload");
        }

        @Override
        public String name() {
            return workload.name();
        }
    }

    /**
     * A workflow and the workload spec files its steps name ({@code file:}), absolute, in the order read.
     *
     * @param workflow the workflow
     * @param referencedFiles the files its steps name, absolute; their contents are part of a run's spec hash
     */
    record WorkflowSpec(WorkflowDefinition workflow, List<Path> referencedFiles) implements SpecDocument {
        /**
         * Checks that both components are given and copies the files.
         *
         * @param workflow the workflow
         * @param referencedFiles the files, copied
         * @throws NullPointerException when a component is null
         */
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
