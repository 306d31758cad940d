package dev.gantry.core.catalog.refresh;

import dev.gantry.api.Architecture;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A VM size offered to a subscription in one region, as a {@link SkuSource} reports it: what the refresh merges into
 * a catalog row and what the quota check counts. A fact the source does not report is empty, and the refresh takes
 * it from the base catalog or the project's tables.
 *
 * @param name the size, e.g. {@code Standard_ND96isr_H100_v5}
 * @param quotaFamily the vCPU quota the size draws on, e.g. {@code standardNDSH100v5Family}
 * @param region the region
 * @param vcpus the size's vCPUs, which is also what a VM of it counts against quota
 * @param vcpusAvailable the vCPUs a constrained-vCPU size leaves usable, when it is one
 * @param memoryGib memory in GiB
 * @param gpus the GPU count
 * @param hyperVGenerations the Hyper-V generations its images may be, e.g. {@code V1}, {@code V2}
 * @param rdma whether it has an RDMA network
 * @param architecture its CPU architecture
 * @param restriction why the size cannot be used in the region ({@code NotAvailableForSubscription}), if so
 * @param zones the availability zones of the region where the subscription can allocate the size: the SKU's
 *     {@code locationInfo.zones} less those its restrictions of type {@code Zone} name, in order; empty when the
 *     region has none for it (a regional placement only)
 */
public record SizeOffer(String name, String quotaFamily, String region, OptionalInt vcpus,
                        OptionalInt vcpusAvailable, OptionalDouble memoryGib, OptionalInt gpus,
                        Set<String> hyperVGenerations, Optional<Boolean> rdma, Optional<Architecture> architecture,
                        Optional<String> restriction, List<String> zones) {
    public SizeOffer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(quotaFamily, "quotaFamily");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(vcpus, "vcpus");
        Objects.requireNonNull(vcpusAvailable, "vcpusAvailable");
        Objects.requireNonNull(memoryGib, "memoryGib");
        Objects.requireNonNull(gpus, "gpus");
        hyperVGenerations = Set.copyOf(hyperVGenerations);
        Objects.requireNonNull(rdma, "rdma");
        Objects.requireNonNull(architecture, "architecture");
        Objects.requireNonNull(restriction, "restriction");
        zones = List.copyOf(zones);
    }

    /** An offer whose zones are not reported (a source that reads none): a regional placement only. */
    public SizeOffer(String name, String quotaFamily, String region, OptionalInt vcpus, OptionalInt vcpusAvailable,
                     OptionalDouble memoryGib, OptionalInt gpus, Set<String> hyperVGenerations, Optional<Boolean> rdma,
                     Optional<Architecture> architecture, Optional<String> restriction) {
        this(name, quotaFamily, region, vcpus, vcpusAvailable, memoryGib, gpus, hyperVGenerations, rdma, architecture,
                restriction, List.of());
    }

    /** The vCPUs a VM of this size can use: the constrained count when the size has one. */
    public OptionalInt usableVcpus() {
        return vcpusAvailable.isPresent() ? vcpusAvailable : vcpus;
    }
}
