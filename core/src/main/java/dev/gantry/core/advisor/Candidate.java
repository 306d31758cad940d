package dev.gantry.core.advisor;

import java.util.Comparator;
import java.util.OptionalDouble;

/**
 * One feasible catalog row as a plan would use it, with the values rule 9 ranks it by.
 *
 * @param row the catalog row in the {@link CatalogIndex}
 * @param size the VM size name
 * @param region the region name
 * @param layout GPUs per node and nodes
 * @param pricePerNode USD per node-hour for the search's capacity type
 * @param total USD per hour for all nodes
 * @param hours estimated hours to completion (rule 8); empty without an estimate
 * @param preference rule 9's preference: 0 is preferred (ND before NC for training, non-RDMA before RDMA for
 *     inference with interconnect any)
 * @param primary the objective minimized first: estimated hours for {@code optimize: time}, the cost to completion
 *     with an estimate, else the total price per hour
 * @param secondary the objective minimized next: the cost to completion for {@code optimize: time}, else 0
 * @param gpuReleaseYear the GPU model's release year, 0 when unknown or CPU
 * @param sizeRank the size name's rank in name order
 * @param regionId the region's id, in region name order
 */
record Candidate(int row, String size, String region, Layout layout, double pricePerNode, double total,
                 OptionalDouble hours,
                 int preference, double primary, double secondary, int gpuReleaseYear, int sizeRank, int regionId) {
    /**
     * Rule 9's order: the preference, then the objective (primary, then secondary), then the tie-breaks: the newer
     * GPU, the size name, the region name. Every step is explicit, so no two rows of a catalog compare equal.
     */
    static final Comparator<Candidate> ORDER = Candidate::compareInOrder;

    // Written out rather than composed with thenComparing: planning compares each feasible row, and the composed
    // form costs a chain of lambda calls per comparison.
    private static int compareInOrder(Candidate a, Candidate b) {
        int c = Integer.compare(a.preference, b.preference);
        if (c == 0) {
            c = Double.compare(a.primary, b.primary);
        }
        if (c == 0) {
            c = Double.compare(a.secondary, b.secondary);
        }
        if (c == 0) {
            c = Integer.compare(b.gpuReleaseYear, a.gpuReleaseYear);
        }
        if (c == 0) {
            c = Integer.compare(a.sizeRank, b.sizeRank);
        }
        if (c == 0) {
            c = Integer.compare(a.regionId, b.regionId);
        }
        return c;
    }

    int gpus() {
        return layout.gpus();
    }

    int nodes() {
        return layout.nodes();
    }

    boolean sameSize(Candidate other) {
        return sizeRank == other.sizeRank;
    }
}
