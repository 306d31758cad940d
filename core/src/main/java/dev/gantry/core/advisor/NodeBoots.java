package dev.gantry.core.advisor;

import dev.gantry.api.NodeBoot;
import dev.gantry.api.Plan;
import dev.gantry.images.BatchNodeAgents;
import dev.gantry.images.BootOptions;
import dev.gantry.images.BootScript;
import dev.gantry.images.ImageCatalog;
import java.util.Objects;
import java.util.Optional;

/**
 * What a plan's nodes run at boot, decided with the plan so that a backend that creates or prepares nodes (a VM, a
 * Batch pool's start task) never needs the image catalog: Gantry's cloud-init config for the image, the Batch node
 * agent that fits it, and the same boot steps as a shell script for a Batch start task. Kept apart from the
 * advisor's search, whose speed is measured on its own.
 */
public final class NodeBoots {
    private final BootScript script;

    public NodeBoots(ImageCatalog images) {
        this.script = new BootScript(Objects.requireNonNull(images, "images"));
    }

    /** The plan with its nodes' boot filled in. */
    public Plan withBoot(Plan plan) {
        return plan.withBoot(of(plan));
    }

    public NodeBoot of(Plan plan) {
        return new NodeBoot(Optional.of(script.cloudConfig(plan, BootOptions.defaults())),
                BatchNodeAgents.forImage(plan.image().id(), plan.vmSize().architecture()),
                Optional.of(script.shellScript(plan, BootOptions.defaults())));
    }
}
