package dev.gantry.api.backend;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * The all-reduce bus bandwidth below which a size's fabric is broken, for the fabric check every rank runs before a
 * multi-node job ({@link StartChecks}), with where the figure comes from.
 *
 * <p>Each figure is the floor Microsoft's own node health checks (Azure/azurehpc-health-checks, the checks the Azure
 * HPC images run) set for {@code check_nccl_allreduce_ib_loopback}: an NCCL all-reduce whose traffic is made to go
 * through the VM's InfiniBand NICs, one GPU per NIC, which is what one GPU per node measures between nodes. A healthy
 * fabric runs well above it (a 400 Gb/s NDR port carries 50 GB/s, a 200 Gb/s HDR port 25 GB/s), while NCCL over the
 * VM's Ethernet NIC cannot reach it: a job below it would train at Ethernet speed.
 *
 * @param vmSize the Azure VM size, as the catalog names it
 * @param busBandwidthGBps the floor in GB/s, nccl-tests' bus bandwidth
 * @param messageBytes the all-reduce's message, as the source measures it
 * @param source where the figure is published: repository, file, commit and check
 */
public record FabricFloor(String vmSize, double busBandwidthGBps, long messageBytes, String source) {
    private static final long GIB = 1L << 30;
    private static final String NHC = "Azure/azurehpc-health-checks ";

    /**
     * Every published floor. Sizes missing here (ND H200 v5, ND MI300X v5: their published configurations set no
     * InfiniBand all-reduce floor) check only with a floor the workload gives ({@code fabricCheck.minBusBandwidthGBps}).
     */
    public static final List<FabricFloor> PUBLISHED = List.of(
            new FabricFloor("Standard_ND96asr_v4", 18.0, 8 * GIB, NHC + "conf/nd96asr_v4.conf at 120095246e74,"
                    + " check_nccl_allreduce_ib_loopback 18.0 with an 8G message"),
            // The configuration gives no message size for this check: 8 GiB as for its sibling ND96asr_v4.
            new FabricFloor("Standard_ND96amsr_A100_v4", 18.0, 8 * GIB, NHC + "conf/nd96amsr_a100_v4.conf at"
                    + " 00f42e3565e7, check_nccl_allreduce_ib_loopback 18.0"),
            new FabricFloor("Standard_ND96isr_H100_v5", 40.0, 16 * GIB, NHC + "conf/nd96isr_h100_v5.conf at"
                    + " 061143251096, check_nccl_allreduce_ib_loopback 40.0 with a 16G message"));

    /**
     * Checks the figure.
     *
     * @param vmSize the size's name, not blank
     * @param busBandwidthGBps the floor, greater than zero
     * @param messageBytes the message, at least 4 bytes (one float)
     * @param source the figure's source, not blank
     * @throws NullPointerException when a name is null
     * @throws IllegalArgumentException when a value is out of range
     */
    public FabricFloor {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(source, "source");
        if (vmSize.isBlank() || source.isBlank()) {
            throw new IllegalArgumentException("a floor needs its size and its source");
        }
        if (!(busBandwidthGBps > 0) || Double.isInfinite(busBandwidthGBps) || messageBytes < 4) {
            throw new IllegalArgumentException("a floor needs a bandwidth > 0 and a message of 4 bytes or more, got "
                    + busBandwidthGBps + " GB/s and " + messageBytes + " bytes");
        }
    }

    /**
     * The published floor of a size; names compare without regard to case, as Azure's do.
     *
     * @param vmSize the size's name
     * @return its floor, or empty when none is published
     */
    public static Optional<FabricFloor> published(String vmSize) {
        String name = vmSize.toLowerCase(Locale.ROOT);
        return PUBLISHED.stream().filter(f -> f.vmSize().toLowerCase(Locale.ROOT).equals(name)).findFirst();
    }

    /**
     * The published floor of a size, for a check that must run.
     *
     * @param vmSize the size's name
     * @return its floor
     * @throws GantryException PLAN_REJECTED naming the sizes that have one and the fix, when it has none
     */
    public static FabricFloor require(String vmSize) {
        return published(vmSize).orElseThrow(() -> new GantryException(ErrorCode.PLAN_REJECTED, "fabricCheck: no "
                + "published all-reduce floor for " + vmSize + " (Gantry has one for " + String.join(", ",
                PUBLISHED.stream().map(FabricFloor::vmSize).toList()) + "); give your own with fabricCheck: "
                + "{minBusBandwidthGBps: GBPS, messageMiB: MIB}, or set fabricCheck: false"));
    }
}
