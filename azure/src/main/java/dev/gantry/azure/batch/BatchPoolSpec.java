package dev.gantry.azure.batch;

import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * A pool to create through Resource Manager, with a user-assigned identity: the data-plane pool add has no identity
 * property, so a pool whose nodes download blobs with an identity is made here. The backend decides every value;
 * {@link BatchManagement} only writes them in Resource Manager's shape ({@code deploymentConfiguration.
 * virtualMachineConfiguration}, {@code scaleSettings.autoScale}, {@code identity.userAssignedIdentities}). Always
 * autoscaled, and {@code targetNodeCommunicationMode: Simplified}.
 *
 * @param containerImageNames images prefetched on every node; with {@code containers}, the pool is Docker-compatible
 * @param autoScaleEvaluationInterval between 5 minutes and 168 hours, as Batch requires
 */
public record BatchPoolSpec(String vmSize, Image image, String nodeAgentSkuId, boolean containers,
        List<String> containerImageNames, boolean interNodeCommunication, int taskSlotsPerNode,
        String autoScaleFormula, Duration autoScaleEvaluationInterval, Optional<StartTask> startTask,
        Map<String, String> metadata, String identityResourceId) {
    public BatchPoolSpec {
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(nodeAgentSkuId, "nodeAgentSkuId");
        containerImageNames = List.copyOf(containerImageNames);
        Objects.requireNonNull(autoScaleFormula, "autoScaleFormula");
        Objects.requireNonNull(autoScaleEvaluationInterval, "autoScaleEvaluationInterval");
        Objects.requireNonNull(startTask, "startTask");
        metadata = Map.copyOf(metadata);
        Objects.requireNonNull(identityResourceId, "identityResourceId");
        if (!containers && !containerImageNames.isEmpty()) {
            throw new IllegalArgumentException("container images to prefetch need a Docker-compatible pool "
                    + "(containers = true)");
        }
        if (taskSlotsPerNode < 1) {
            throw new IllegalArgumentException("taskSlotsPerNode must be at least 1, not " + taskSlotsPerNode);
        }
    }

    /** The nodes' image: a marketplace image or an Azure Compute Gallery image version. */
    public sealed interface Image permits Marketplace, Gallery {
    }

    public record Marketplace(String publisher, String offer, String sku, String version) implements Image {
        public Marketplace {
            Objects.requireNonNull(publisher, "publisher");
            Objects.requireNonNull(offer, "offer");
            Objects.requireNonNull(sku, "sku");
            Objects.requireNonNull(version, "version");
        }
    }

    /** An image (version) in an Azure Compute Gallery, by its resource id. */
    public record Gallery(String imageId) implements Image {
        public Gallery {
            Objects.requireNonNull(imageId, "imageId");
        }
    }

    /** What every node runs when it joins the pool, before any task. */
    public record StartTask(String commandLine, Map<String, String> environment, boolean elevated,
            boolean waitForSuccess, int maxTaskRetryCount) {
        public StartTask {
            Objects.requireNonNull(commandLine, "commandLine");
            environment = Map.copyOf(environment);
        }
    }
}
