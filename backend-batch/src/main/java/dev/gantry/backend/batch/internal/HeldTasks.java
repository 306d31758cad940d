package dev.gantry.backend.batch.internal;

import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.backend.batch.internal.records.TaskEntries;
import dev.gantry.backend.batch.internal.records.TaskEntry;
import dev.gantry.backend.batch.internal.remote.Accounts;
import dev.gantry.backend.batch.internal.remote.BatchCalls;
import dev.gantry.backend.batch.internal.remote.Refused;
import dev.gantry.backend.batch.internal.render.WireJson;
import dev.gantry.backend.batch.internal.status.HoldDecision;
import java.util.List;
import java.util.Set;
import java.util.function.Function;

/**
 * Carries out a poll's {@link HoldDecision.AddNow}: the held body (kept in the entry, rendered without the held
 * dependencies) is added with the task's own id, so a second poll or process adding it meets {@code TaskExists}, which
 * is adopted. A {@link HoldDecision.Cancel} needs nothing here: its CANCELLED status is among the poll's ended ones.
 */
final class HeldTasks {
    private final TaskEntries entries;
    private final Accounts accounts;
    private final BatchCalls calls;
    private final Function<String, BatchAccountSettings> accountNamed;

    HeldTasks(TaskEntries entries, Accounts accounts, BatchCalls calls,
              Function<String, BatchAccountSettings> accountNamed) {
        this.entries = entries;
        this.accounts = accounts;
        this.calls = calls;
        this.accountNamed = accountNamed;
    }

    void carryOut(List<HoldDecision> decisions) {
        for (HoldDecision decision : decisions) {
            if (decision instanceof HoldDecision.AddNow) {
                entries.byRef(decision.ref()).filter(e -> e.phase() == TaskEntry.Phase.HELD && e.terminal().isEmpty())
                        .ifPresent(this::add);
            }
        }
    }

    private void add(TaskEntry entry) {
        TaskAddParameter task = WireJson.read(entry.heldTask().orElseThrow(), TaskAddParameter.class);
        BatchAccountSettings account = accountNamed.apply(entry.account());
        try {
            calls.on(accounts.connection(account)).call("adding held task " + entry.ref().taskId() + " to job " + entry.jobId() + " of Batch account "
                    + entry.account(), Set.of("TaskExists"), batch -> {
                        batch.tasks().add(entry.jobId(), task);
                        return null;
                    });
        } catch (Refused exists) {
            // An earlier poll (or another process) added it: the same id, so it is this task.
        }
        entries.save(entry.added());
    }
}
