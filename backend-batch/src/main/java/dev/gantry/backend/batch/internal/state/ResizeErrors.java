package dev.gantry.backend.batch.internal.state;

import com.microsoft.azure.batch.protocol.models.ResizeError;
import java.util.List;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * A pool's resize errors as the message of its waiting tasks. They only ever explain a wait: an autoscale pool parked
 * at zero may carry a stale one for hours, and failing or blocking a submit on it deadlocks (Nextflow #7312, #4792,
 * #3257), so nothing but this message reads them.
 */
public final class ResizeErrors {
    private ResizeErrors() {
    }

    /** The message, or empty when the pool has no resize error. */
    public static Optional<String> waitingReason(String poolId, String vmSize, List<ResizeError> errors) {
        if (errors == null || errors.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of("pool " + poolId + " could not grow: " + errors.stream()
                .map(error -> describe(error, vmSize)).collect(Collectors.joining("; ")));
    }

    private static String describe(ResizeError error, String vmSize) {
        String said = error.code() + (error.message() == null ? "" : " (" + error.message() + ")");
        String fix = switch (String.valueOf(error.code())) {
            case "AccountCoreQuotaReached" -> "the account's core quota for " + vmSize + " is used up; ask for more "
                    + "(Batch account > Quotas) or wait for other pools to shrink";
            case "AllocationFailed" -> "Azure had no " + vmSize + " capacity in the region just now; Batch tries "
                    + "again at its next autoscale evaluation";
            case "AllocationTimedout" -> "Azure did not deliver " + vmSize + " nodes in time; Batch tries again at its "
                    + "next autoscale evaluation";
            default -> "";
        };
        return fix.isEmpty() ? said : said + ": " + fix;
    }
}
