package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.AutoUserScope;
import com.microsoft.azure.batch.protocol.models.AutoUserSpecification;
import com.microsoft.azure.batch.protocol.models.ContainerConfiguration;
import com.microsoft.azure.batch.protocol.models.ContainerType;
import com.microsoft.azure.batch.protocol.models.ElevationLevel;
import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import com.microsoft.azure.batch.protocol.models.NodeCommunicationMode;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.StartTask;
import com.microsoft.azure.batch.protocol.models.UserIdentity;
import com.microsoft.azure.batch.protocol.models.VirtualMachineConfiguration;
import dev.gantry.api.ContainerSpec;
import dev.gantry.api.ImageRef;
import dev.gantry.api.Plan;
import java.util.List;
import java.util.Optional;

/** The body of a data-plane pool add for a plan's pool ({@code POST /pools}). */
public final class PoolBody {
    /** The environment variable that carries the boot script to the start task. */
    static final String BOOT_SCRIPT = "GANTRY_BOOT_SCRIPT";
    /**
     * The start task's fixed command: writes the boot script from the environment into the start task's own
     * directory and runs it there, so a failure's line numbers point into a file left on the node. No plan value is
     * on the command line.
     */
    public static final String START_COMMAND = "/bin/sh -c 'printf \"%s\" \"$" + BOOT_SCRIPT
            + "\" > gantry-boot.sh && exec /bin/sh ./gantry-boot.sh'";

    private PoolBody() {
    }

    /**
     * The pool.
     *
     * @param key the pool's key
     * @param poolId its id ({@link PoolKey#poolId})
     * @param plan a plan the pool is made for (its image, boot and container)
     * @param bootScript the POSIX-shell form of the plan's boot steps; none: no start task
     * @param maxNodes {@code maxNodesPerPool}
     */
    public static PoolAddParameter render(PoolKey key, String poolId, Plan plan, Optional<String> bootScript,
                                          int maxNodes) {
        VirtualMachineConfiguration vm = new VirtualMachineConfiguration().withImageReference(image(plan.image()))
                .withNodeAgentSKUId(key.nodeAgentSku());
        plan.workload().container().map(ContainerSpec::image).ifPresent(image -> vm.withContainerConfiguration(
                new ContainerConfiguration().withType(ContainerType.DOCKER_COMPATIBLE)
                        .withContainerImageNames(List.of(image))));
        PoolAddParameter pool = new PoolAddParameter().withId(poolId).withVmSize(key.vmSize())
                .withVirtualMachineConfiguration(vm)
                .withTargetNodeCommunicationMode(NodeCommunicationMode.SIMPLIFIED)
                .withTaskSlotsPerNode(1)
                .withEnableAutoScale(true)
                .withAutoScaleFormula(AutoscaleFormula.render(key.spot(), plan.nodes(), maxNodes))
                .withAutoScaleEvaluationInterval(Periods.of(AutoscaleFormula.EVALUATION_INTERVAL))
                .withMetadata(PoolMetadata.of(key));
        if (key.multiNode()) {
            pool.withEnableInterNodeCommunication(true);
        }
        bootScript.ifPresent(script -> pool.withStartTask(startTask(script)));
        return pool;
    }

    /** An elevated start task that must succeed before the node takes tasks. */
    static StartTask startTask(String script) {
        return new StartTask().withCommandLine(START_COMMAND)
                .withEnvironmentSettings(List.of(new EnvironmentSetting().withName(BOOT_SCRIPT).withValue(script)))
                .withUserIdentity(new UserIdentity().withAutoUser(new AutoUserSpecification()
                        .withScope(AutoUserScope.POOL).withElevationLevel(ElevationLevel.ADMIN)))
                .withMaxTaskRetryCount(0)
                .withWaitForSuccess(true);
    }

    /**
     * A marketplace URN {@code publisher:offer:sku:version} split into its parts; an Azure Compute Gallery image id as
     * {@code virtualMachineImageId}.
     */
    static ImageReference image(ImageRef image) {
        return switch (image.kind()) {
            case MARKETPLACE -> {
                String[] parts = image.id().split(":", -1);
                if (parts.length != 4 || java.util.Arrays.stream(parts).anyMatch(String::isBlank)) {
                    throw new IllegalArgumentException("marketplace image '" + image.id() + "' is not a URN "
                            + "publisher:offer:sku:version");
                }
                yield new ImageReference().withPublisher(parts[0]).withOffer(parts[1]).withSku(parts[2])
                        .withVersion(parts[3]);
            }
            case GALLERY -> new ImageReference().withVirtualMachineImageId(image.id());
            case HOST -> throw new IllegalArgumentException("a Batch pool needs a marketplace or gallery image, got "
                    + "the host's own OS");
        };
    }
}
