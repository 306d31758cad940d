package dev.gantry.api;

import java.util.Objects;
import java.util.Optional;

/**
 * What a node needs at boot for the plan's image, decided when the plan is made, so that a backend that creates or
 * prepares nodes (a VM, a Batch pool's start task, a CycleCloud node array) runs it without knowing images itself.
 * Backends that run on hosts someone else prepared ignore it.
 *
 * @param cloudConfig the cloud-init {@code #cloud-config} each node boots with (installs what the image lacks, runs
 *     the user's boot commands, checks prerequisites); it never holds secrets
 * @param batchNodeAgentSku the Azure Batch node agent SKU id that fits the image (e.g.
 *     {@code batch.node.ubuntu 22.04}), for pools
 */
public record NodeBoot(Optional<String> cloudConfig, Optional<String> batchNodeAgentSku) {
    private static final NodeBoot NONE = new NodeBoot(Optional.empty(), Optional.empty());

    public NodeBoot {
        Objects.requireNonNull(cloudConfig, "cloudConfig");
        Objects.requireNonNull(batchNodeAgentSku, "batchNodeAgentSku");
    }

    /** Nothing to run at boot: hosts Gantry does not create, or a plan built directly without one. */
    public static NodeBoot none() {
        return NONE;
    }
}
