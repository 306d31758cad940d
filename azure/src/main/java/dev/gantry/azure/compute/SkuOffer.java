package dev.gantry.azure.compute;

import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;

/**
 * A VM size as the Compute Resource SKUs API reports it for one region.
 *
 * @param name the size, e.g. {@code Standard_ND96isr_H100_v5}
 * @param quotaFamily the SKU's {@code family}, which is also its vCPU quota name ({@code standardNDSH100v5Family})
 * @param region the region
 * @param vcpus the {@code vCPUs} capability
 * @param vcpusAvailable the {@code vCPUsAvailable} capability of constrained-vCPU sizes
 * @param memoryGib the {@code MemoryGB} capability (GiB, despite the name)
 * @param gpus the {@code GPUs} capability
 * @param hyperVGenerations the {@code HyperVGenerations} capability, e.g. {@code V1,V2}
 * @param rdma the {@code RdmaEnabled} capability
 * @param cpuArchitecture the {@code CpuArchitectureType} capability ({@code x64} or {@code Arm64})
 * @param restriction the reason the size cannot be used in the region ({@code NotAvailableForSubscription}), if so
 * @param zones the region's availability zones where the subscription can allocate the size: the SKU's
 *     {@code locationInfo[].zones} for the region less the zones its {@code Zone} restrictions list
 *     ({@code restrictionInfo.zones}), sorted; empty when the region offers it in no zone
 */
public record SkuOffer(String name, String quotaFamily, String region, OptionalInt vcpus,
                       OptionalInt vcpusAvailable, OptionalDouble memoryGib, OptionalInt gpus,
                       Set<String> hyperVGenerations, Optional<Boolean> rdma, Optional<String> cpuArchitecture,
                       Optional<String> restriction, List<String> zones) {
    public SkuOffer {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(quotaFamily, "quotaFamily");
        Objects.requireNonNull(region, "region");
        hyperVGenerations = Set.copyOf(hyperVGenerations);
        zones = List.copyOf(zones);
    }

    /** An offer in no availability zone. */
    public SkuOffer(String name, String quotaFamily, String region, OptionalInt vcpus, OptionalInt vcpusAvailable,
                    OptionalDouble memoryGib, OptionalInt gpus, Set<String> hyperVGenerations, Optional<Boolean> rdma,
                    Optional<String> cpuArchitecture, Optional<String> restriction) {
        this(name, quotaFamily, region, vcpus, vcpusAvailable, memoryGib, gpus, hyperVGenerations, rdma,
                cpuArchitecture, restriction, List.of());
    }

    /** The vCPUs a VM of this size can use: the constrained count when the SKU reports one. */
    public OptionalInt usableVcpus() {
        return vcpusAvailable.isPresent() ? vcpusAvailable : vcpus;
    }
}
