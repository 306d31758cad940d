package dev.gantry.azure.arm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.azure.fakes.ArmFake;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class ArmFailuresTest {
    static final ArmFailures.Scope SCOPE = new ArmFailures.Scope("creating VM a-1", "Standard_NC24ads_A100_v4",
            "westus3");

    @Test
    void readsFamilyRegionLimitUsageAndShortfallFromAzuresQuotaMessage() {
        var quota = ArmFailures.QuotaShortfall.parse("OperationNotAllowed", ArmFake.QUOTA_MESSAGE)
                .orElseThrow();

        assertEquals(new ArmFailures.QuotaShortfall("standardNDSH100v5Family", Optional.of("eastus"),
                OptionalInt.of(0), OptionalInt.of(0), OptionalInt.of(96)), quota);
    }

    @Test
    void spotQuotaAndMessagesWithoutNumbersStillNameTheQuota() {
        var quota = ArmFailures.QuotaShortfall.parse("QuotaExceeded", "Operation results in exceeding quota limits "
                + "of Core. Maximum allowed: 24, Current in use: 24, Additional requested: 24. Exceeding approved "
                + "LowPriorityCores quota.").orElseThrow();

        assertEquals("LowPriorityCores", quota.family());
        String text = quota.describe(SCOPE);
        assertEquals("Quota exceeded while creating VM a-1: Standard_NC24ads_A100_v4 in westus3 needs vCPUs of the "
                + "LowPriorityCores quota. Request a quota increase for LowPriorityCores in westus3 (Azure portal: "
                + "Quotas > Compute), or plan another region or VM size.", text);
    }

    @Test
    void otherOperationNotAllowedErrorsAreNotQuota() {
        assertTrue(ArmFailures.QuotaShortfall.parse("OperationNotAllowed", "The VM is being deleted.").isEmpty());
        assertTrue(ArmFailures.QuotaShortfall.parse("InvalidParameter", "quota").isEmpty());
    }
}
