package dev.gantry.backend.batch.internal.state;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.microsoft.azure.batch.protocol.models.ResizeError;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ResizeErrorsTest {
    private static ResizeError error(String code, String message) {
        return new ResizeError().withCode(code).withMessage(message);
    }

    @Test
    void eachKnownErrorSaysWhatToDoAndOthersAreQuoted() {
        assertEquals(Optional.of("pool p could not grow: AllocationFailed (no capacity): Azure had no "
                + "Standard_ND96amsr_A100_v4 capacity in the region just now; Batch tries again at its next autoscale "
                + "evaluation; AllocationTimedout: Azure did not deliver Standard_ND96amsr_A100_v4 nodes in time; Batch "
                + "tries again at its next autoscale evaluation; SomethingNew (a message)"),
                ResizeErrors.waitingReason("p", "Standard_ND96amsr_A100_v4", List.of(error("AllocationFailed",
                        "no capacity"), error("AllocationTimedout", null), error("SomethingNew", "a message"))));
    }

    @Test
    void aPoolWithoutErrorsHasNoReason() {
        assertEquals(Optional.empty(), ResizeErrors.waitingReason("p", "Standard_D2s_v5", List.of()));
        assertEquals(Optional.empty(), ResizeErrors.waitingReason("p", "Standard_D2s_v5", null));
    }
}
