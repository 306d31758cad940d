package dev.gantry.backend.batch.internal.submit;

import dev.gantry.api.GantryException;
import dev.gantry.api.backend.Submission;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import java.util.Objects;

/** What became of one submission of a {@code submitAll}: each is answered, whatever became of the others. */
public sealed interface SubmitOutcome permits SubmitOutcome.Submitted, SubmitOutcome.Failed {
    /**
     * Batch has the task, or Gantry holds it until its dependencies end ({@link TaskEntry.Phase#HELD}).
     *
     * @param entry its entry as saved; {@code entry.ref().id()} is the JobRef's id
     */
    record Submitted(TaskEntry entry) implements SubmitOutcome {
        public Submitted {
            Objects.requireNonNull(entry, "entry");
        }
    }

    /**
     * This submission failed (Batch refused the task, or its pool or job could not be made); the others went on.
     *
     * @param error the failure, in Batch's words where Batch refused
     */
    record Failed(Submission submission, GantryException error) implements SubmitOutcome {
        public Failed {
            Objects.requireNonNull(submission, "submission");
            Objects.requireNonNull(error, "error");
        }
    }
}
