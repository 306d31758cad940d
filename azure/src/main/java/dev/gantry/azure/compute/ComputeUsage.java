package dev.gantry.azure.compute;

import java.util.Objects;

/**
 * One quota of a subscription in a region, as the Compute usages API ({@code Usage_List}) reports it.
 *
 * @param name the quota's name, e.g. {@code cores}, {@code lowPriorityCores}, {@code standardNDSH100v5Family}
 * @param localizedName what the portal shows, e.g. {@code Total Regional vCPUs}
 * @param currentValue how much of it is in use (vCPUs for the vCPU quotas)
 * @param limit the quota's limit
 */
public record ComputeUsage(String name, String localizedName, long currentValue, long limit) {
    public ComputeUsage {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(localizedName, "localizedName");
    }

    /** What is left under the limit (negative when Azure reports more in use than allowed). */
    public long free() {
        return limit - currentValue;
    }
}
