package dev.gantry.backend.batch.internal.status;

import dev.gantry.api.backend.JobStatus;
import dev.gantry.backend.batch.internal.state.TaskRecord;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The answer of one status poll, and what the caller must persist.
 *
 * @param statuses each asked id's status, in the order asked
 * @param records the records that changed (a run seen, an eviction counted, a cancel), by task id
 *     ({@code TaskRef.id()}): persist them, so counts never fall across processes
 * @param decisions held tasks whose dependencies all ended: add them now, or record them cancelled
 */
public record Poll(Map<String, JobStatus> statuses, Map<String, TaskRecord> records, List<HoldDecision> decisions) {
    public Poll {
        statuses = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(statuses));
        records = Map.copyOf(records);
        decisions = List.copyOf(decisions);
    }

    /** The asked tasks that reached a terminal state: persist them, and later polls answer them without a call. */
    public Map<String, JobStatus> ended() {
        return statuses.entrySet().stream().filter(e -> e.getValue().state().isTerminal())
                .collect(Collectors.toMap(Map.Entry::getKey, Map.Entry::getValue));
    }
}
