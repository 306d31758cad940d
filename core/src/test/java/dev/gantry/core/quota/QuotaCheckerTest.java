package dev.gantry.core.quota;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.Architecture;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.catalog.refresh.SkuSource;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/** Which vCPU quotas a plan would exceed, over in-memory sizes and usages. */
class QuotaCheckerTest {
    static final String H100 = "Standard_ND96isr_H100_v5";
    static final String A100 = "Standard_NC24ads_A100_v4";
    /** A constrained-vCPU size: 8 vCPUs of which 2 are usable, and quota counts all 8. */
    static final String CONSTRAINED = "Standard_E8-2s_v5";

    final List<Collection<String>> skuReads = new ArrayList<>();
    final List<String> usageReads = new ArrayList<>();
    final Map<String, Map<String, QuotaUsage>> usages = new HashMap<>();
    QuotaChecker quota;

    static SizeOffer offer(String name, String family, int vcpus, int usable, String restriction) {
        return new SizeOffer(name, family, "eastus", OptionalInt.of(vcpus), OptionalInt.of(usable),
                OptionalDouble.of(64), OptionalInt.empty(), Set.of("V2"), Optional.of(false),
                Optional.of(Architecture.X64), Optional.ofNullable(restriction));
    }

    void usages(String region, QuotaUsage... quotas) {
        Map<String, QuotaUsage> byName = new HashMap<>();
        for (QuotaUsage usage : quotas) {
            byName.put(usage.name().toLowerCase(Locale.ROOT), usage);
        }
        usages.put(region, byName);
    }

    @BeforeEach
    void subscription() {
        SkuSource skus = regions -> {
            skuReads.add(List.copyOf(regions));
            return List.of(offer(H100, "standardNDSH100v5Family", 96, 96, null),
                    offer(A100, "StandardNCADSA100v4Family", 24, 24, "NotAvailableForSubscription"),
                    offer(CONSTRAINED, "standardESv5Family", 8, 2, null));
        };
        quota = new QuotaChecker(skus, region -> {
            usageReads.add(region);
            return usages.getOrDefault(region.toLowerCase(Locale.ROOT), Map.of());
        });
        usages("eastus",
                new QuotaUsage("cores", "Total Regional vCPUs", 40, 350),
                new QuotaUsage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 100),
                new QuotaUsage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 96, 200),
                new QuotaUsage("standardESv5Family", "Standard ESv5 Family vCPUs", 0, 10));
    }

    @Test
    void anOnDemandPlanNamesRegionQuotaLimitUsageAndNeedExactly() {
        assertEquals(List.of(), quota.check("eastus", H100, 1, false), "96 of 104 free family vCPUs");
        List<Problem> problems = quota.check("eastus", H100, 2, false);
        assertEquals(List.of("plan.size: region eastus, quota standardNDSH100v5Family: limit 200 vCPUs, 96 in use,"
                + " the plan needs 192 (2 × Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at"
                + " least 88 vCPUs for standardNDSH100v5Family in eastus, or plan fewer nodes or another region"),
                problems.stream().map(Problem::toString).toList());
    }

    @Test
    void anOnDemandPlanIsCheckedAgainstItsFamilyAndTheRegionalTotalBoth() {
        List<Problem> problems = quota.check("eastus", H100, 4, false);
        assertEquals(List.of("region eastus, quota standardNDSH100v5Family: limit 200 vCPUs, 96 in use, the plan needs"
                        + " 384 (4 × Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at least 280"
                        + " vCPUs for standardNDSH100v5Family in eastus, or plan fewer nodes or another region",
                "region eastus, quota cores: limit 350 vCPUs, 40 in use, the plan needs 384 (4 ×"
                        + " Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at least 74 vCPUs for"
                        + " cores in eastus, or plan fewer nodes or another region"),
                problems.stream().map(Problem::message).toList());
        assertEquals(List.of("plan.size", "plan.size"), problems.stream().map(Problem::path).toList());

        usages("eastus", new QuotaUsage("cores", "Total Regional vCPUs", 340, 350),
                new QuotaUsage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 0, 1000));
        List<Problem> regional = quota.check("eastus", H100, 1, false);
        assertEquals(1, regional.size(), "the family fits, the regional total does not");
        assertEquals("region eastus, quota cores: limit 350 vCPUs, 340 in use, the plan needs 96 (1 ×"
                + " Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at least 86 vCPUs for cores in"
                + " eastus, or plan fewer nodes or another region", regional.get(0).message());
    }

    @Test
    void aSpotPlanIsCheckedAgainstTheSpotQuotaOnly() {
        usages("eastus", new QuotaUsage("cores", "Total Regional vCPUs", 350, 350),
                new QuotaUsage("lowPriorityCores", "Total Regional Low-priority vCPUs", 0, 500),
                new QuotaUsage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 200, 200));
        assertEquals(List.of(), quota.check("eastus", H100, 5, true),
                "480 Spot vCPUs fit the 500 of lowPriorityCores; the full family and regional quotas are not theirs");
        List<Problem> tooMany = quota.check("eastus", H100, 6, true);
        assertEquals(List.of("region eastus, quota lowPriorityCores: limit 500 vCPUs, 0 in use, the plan needs 576"
                + " (6 × Standard_ND96isr_H100_v5 at 96 vCPUs); request a quota increase of at least 76 vCPUs for"
                + " lowPriorityCores in eastus, or plan fewer nodes or another region"),
                tooMany.stream().map(Problem::message).toList());
    }

    @Test
    void aQuotaTheRegionDoesNotReportIsNothingToCheck() {
        usages("eastus", new QuotaUsage("standardNDSH100v5Family", "Standard NDSH100v5 Family vCPUs", 0, 1000));
        assertEquals(List.of(), quota.check("eastus", H100, 8, false), "no cores quota reported: not enforced");
        assertEquals(List.of(), quota.check("eastus", H100, 100, true), "no lowPriorityCores quota reported");
    }

    @Test
    void aSizeNotOfferedOrRestrictedIsAProblemWithoutReadingUsages() {
        assertEquals(List.of("plan.size: Standard_Q1_v1 is not offered to this subscription in region eastus; choose"
                        + " another region or size"),
                quota.check("eastus", "Standard_Q1_v1", 1, false).stream().map(Problem::toString).toList());
        assertEquals(List.of("plan.size: Standard_NC24ads_A100_v4 is restricted in region eastus"
                        + " (NotAvailableForSubscription); choose another region or ask Azure support to enable it"),
                quota.check("eastus", A100, 1, false).stream().map(Problem::toString).toList());
        assertEquals(List.of(), usageReads, "no usage read for a size that cannot start");
    }

    @Test
    void aConstrainedVcpuSizeCountsItsFullVcpus() {
        List<Problem> problems = quota.check("eastus", CONSTRAINED, 2, false);
        assertEquals(1, problems.size(), problems.toString());
        assertEquals("region eastus, quota standardESv5Family: limit 10 vCPUs, 0 in use, the plan needs 16 (2 ×"
                + " Standard_E8-2s_v5 at 8 vCPUs); request a quota increase of at least 6 vCPUs for standardESv5Family"
                + " in eastus, or plan fewer nodes or another region", problems.get(0).message());
    }

    @Test
    void theSizeListIsReadOncePerRegionAndUsagesOnEveryCheck() {
        quota.check("eastus", H100, 1, false);
        quota.check("EastUS", "standard_nd96isr_h100_v5", 1, true);
        quota.check("eastus", A100, 1, false);
        quota.check("westus", H100, 1, false);
        assertEquals(List.of(List.of("eastus"), List.of("westus")), skuReads,
                "one size read per region, whatever its case; a size compares in any case");
        assertEquals(List.of("eastus", "EastUS", "westus"), usageReads,
                "usages change as VMs start and stop: read on every check that reaches them");
    }

    @Test
    void requireFailsWithQuotaExceededListingEveryProblem() {
        GantryException error = assertThrows(GantryException.class, () -> quota.require("eastus", H100, 4, false));
        assertEquals(ErrorCode.QUOTA_EXCEEDED, error.code());
        assertEquals(quota.check("eastus", H100, 4, false), error.problems());
        quota.require("eastus", H100, 1, false);
        IllegalArgumentException none = assertThrows(IllegalArgumentException.class,
                () -> quota.check("eastus", H100, 0, false));
        assertEquals("nodes must be >= 1, got 0", none.getMessage());
    }
}
