package dev.gantry.backend.batch.internal.validate;

import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.azure.batch.BatchAccount;
import dev.gantry.azure.batch.BatchVmSku;
import dev.gantry.azure.compute.ComputeUsage;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Whether a plan's cores fit: a Batch-managed account's own core quotas (dedicated, per VM family where enforced,
 * low-priority), or, for a user-subscription account, what is left of the subscription's regional and family vCPU
 * quotas (Compute usages). A plan beyond them would wait for ever with {@code AccountCoreQuotaReached}.
 */
final class QuotaCheck {
    private static final String LOW_PRIORITY = "lowprioritycores";
    private static final String REGIONAL = "cores";

    private QuotaCheck() {
    }

    static List<Problem> problems(Plan plan, BatchVmSku sku, PlanCheck.Account account, int cores) {
        AccountFacts facts = account.facts();
        Optional<BatchAccount> read = facts.account();
        if (read.isEmpty()) {
            return List.of();
        }
        return facts.allocationMode().filter(mode -> mode == AccountFacts.Allocation.USER_SUBSCRIPTION).isPresent()
                ? subscription(plan, sku, account.usages(), cores) : batchManaged(plan, sku, read.get(), cores);
    }

    private static List<Problem> batchManaged(Plan plan, BatchVmSku sku, BatchAccount account, int cores) {
        List<Problem> problems = new ArrayList<>();
        String fix = "; ask for more (Batch account > Quotas in the portal) or plan fewer or smaller nodes";
        OptionalInt quota = plan.spot() ? account.lowPriorityCoreQuota() : account.dedicatedCoreQuota();
        String name = plan.spot() ? "lowPriorityCoreQuota" : "dedicatedCoreQuota";
        if (quota.isPresent() && cores > quota.getAsInt()) {
            problems.add(beyond(plan, cores, "the account's " + name + " of " + quota.getAsInt() + fix));
        }
        Integer family = account.dedicatedCoreQuotaPerVmFamily().entrySet().stream()
                .filter(entry -> entry.getKey().equalsIgnoreCase(sku.familyName())).map(java.util.Map.Entry::getValue)
                .findFirst().orElse(null);
        if (!plan.spot() && account.perVmFamilyQuotaEnforced() && family != null && cores > family) {
            problems.add(beyond(plan, cores, "the account's dedicated quota of " + family + " cores for "
                    + sku.familyName() + fix));
        }
        return problems;
    }

    private static List<Problem> subscription(Plan plan, BatchVmSku sku, java.util.Map<String, ComputeUsage> usages,
            int cores) {
        List<Problem> problems = new ArrayList<>();
        String fix = "; request more (Subscription > Usage + quotas in the portal), free some, or plan fewer or "
                + "smaller nodes";
        List<String> names = plan.spot() ? List.of(LOW_PRIORITY) : List.of(REGIONAL, PlanCheck.lower(sku.familyName()));
        for (String name : names) {
            ComputeUsage usage = usages.get(name);
            if (usage != null && cores > usage.free()) {
                problems.add(beyond(plan, cores, "what is free of the subscription's " + usage.name() + " quota in "
                        + plan.region() + " (" + usage.currentValue() + " of " + usage.limit() + " in use)" + fix));
            }
        }
        return problems;
    }

    private static Problem beyond(Plan plan, int cores, String what) {
        return Problem.of("resources.nodes", plan.nodes() + " x " + plan.vmSize().name() + (plan.spot() ? " (Spot)"
                : "") + " take " + cores + " cores, beyond " + what);
    }
}
