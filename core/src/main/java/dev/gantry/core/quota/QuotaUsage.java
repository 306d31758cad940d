package dev.gantry.core.quota;

import java.util.Objects;

/**
 * One quota of a subscription in a region, as a {@link QuotaSource} reports it.
 *
 * @param name the quota's name, e.g. {@code cores}, {@code lowPriorityCores}, {@code standardNDSH100v5Family}
 * @param localizedName what the portal shows, e.g. {@code Total Regional vCPUs}
 * @param inUse how much of it is in use (vCPUs for the vCPU quotas)
 * @param limit the quota's limit
 */
public record QuotaUsage(String name, String localizedName, long inUse, long limit) {
    public QuotaUsage {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(localizedName, "localizedName");
    }

    /** What is left under the limit (negative when more is in use than allowed). */
    public long free() {
        return limit - inUse;
    }
}
