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
 * @param shellScript the same boot steps as a POSIX {@code #!/bin/sh} script, for a platform that runs a script
 *     rather than cloud-init and provides the container runtime itself: an Azure Batch pool's start task runs it
 *     elevated, once per node. It leaves installing the container runtime and pulling images to Batch, exits non-zero
 *     when the node fails its checks, and never holds secrets (SPI v2)
 */
public record NodeBoot(Optional<String> cloudConfig, Optional<String> batchNodeAgentSku, Optional<String> shellScript) {
    private static final NodeBoot NONE = new NodeBoot(Optional.empty(), Optional.empty(), Optional.empty());

    /**
     * Checks that every component is given (each may be empty).
     *
     * @param cloudConfig the cloud-init document, or empty
     * @param batchNodeAgentSku the Batch node agent SKU, or empty
     * @param shellScript the boot steps as a shell script, or empty
     * @throws NullPointerException when a component is null
     */
    public NodeBoot {
        Objects.requireNonNull(cloudConfig, "cloudConfig");
        Objects.requireNonNull(batchNodeAgentSku, "batchNodeAgentSku");
        Objects.requireNonNull(shellScript, "shellScript");
    }

    /**
     * Boot instructions without the shell form (the SPI v1 form).
     *
     * @param cloudConfig the cloud-init document, or empty
     * @param batchNodeAgentSku the Batch node agent SKU, or empty
     */
    public NodeBoot(Optional<String> cloudConfig, Optional<String> batchNodeAgentSku) {
        this(cloudConfig, batchNodeAgentSku, Optional.empty());
    }

    /**
     * Nothing to run at boot: hosts Gantry does not create, or a plan built directly without one.
     *
     * @return the instance with every component empty
     */
    public static NodeBoot none() {
        return NONE;
    }
}
