package dev.gantry.backend.batch.internal;

import dev.gantry.api.GantryException;
import dev.gantry.backend.batch.internal.submit.SubmitOutcome;
import java.util.List;
import java.util.stream.Collectors;

/**
 * The error a {@code submitAll} throws when submissions failed: one failure as it is; several as one error with the
 * first's code, naming each (at most {@value #NAMED}) by its idempotency key.
 */
final class SubmitFailures {
    static final int NAMED = 5;

    private SubmitFailures() {
    }

    static GantryException of(List<SubmitOutcome.Failed> failed, int submitted) {
        if (failed.size() == 1) {
            return failed.get(0).error();
        }
        String each = failed.stream().limit(NAMED).map(f -> f.submission().options().idempotencyKey() + ": "
                + f.error().getMessage()).collect(Collectors.joining("; "));
        String more = failed.size() > NAMED ? "; and " + (failed.size() - NAMED) + " more" : "";
        return new GantryException(failed.get(0).error().code(), failed.size() + " of " + submitted + " submissions "
                + "failed (the others were submitted; submitting again with the same keys returns them): " + each
                + more, failed.get(0).error());
    }
}
