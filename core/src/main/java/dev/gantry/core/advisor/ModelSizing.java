package dev.gantry.core.advisor;

import dev.gantry.model.Money;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Phase;
import java.util.Locale;

/**
 * GPU memory a model needs (rule M1): inference holds the weights plus about 20% for activations and the KV cache;
 * full training with Adam in mixed precision holds weights, gradients, FP32 master weights and two optimizer moments
 * (16 bytes per parameter) plus about 25% for activations. Memory is summed over every GPU of the plan, which assumes
 * the framework shards the model (tensor/pipeline parallel for inference, FSDP/ZeRO for training).
 */
final class ModelSizing {
    static final double INFERENCE_OVERHEAD = 1.2;
    static final double TRAINING_BYTES_PER_PARAMETER = 16;
    static final double TRAINING_ACTIVATIONS = 1.25;
    static final double GIB = 1024d * 1024 * 1024;
    /** GPU counts per node the sizing tries, smallest first. */
    static final int[] COUNTS = {1, 2, 4, 8};

    private ModelSizing() {
    }

    /** Total GPU memory needed, GiB. */
    static double neededGib(ModelSize model, Phase phase) {
        return phase == Phase.INFERENCE
                ? model.parameters() * model.precision().bytesPerParameter() * INFERENCE_OVERHEAD / GIB
                : model.parameters() * TRAINING_BYTES_PER_PARAMETER * TRAINING_ACTIVATIONS / GIB;
    }

    /** The arithmetic, for the plan's reasons. */
    static String arithmetic(ModelSize model, Phase phase) {
        String params = parameters(model.parameters());
        String precision = model.precision().name().toLowerCase(Locale.ROOT);
        if (phase == Phase.INFERENCE) {
            return params + " parameters × " + Money.format(model.precision().bytesPerParameter()) + " bytes ("
                    + precision + ") × 1.2 for activations and KV cache = " + Money.gib(neededGib(model, phase))
                    + " GiB of GPU memory in total for inference";
        }
        return params + " parameters × 16 bytes (weights, gradients, FP32 master weights and Adam moments in mixed "
                + "precision) × 1.25 for activations = " + Money.gib(neededGib(model, phase))
                + " GiB of GPU memory in total for full training";
    }

    /** {@code 7e9}, {@code 1.5e9}, {@code 350e6}: the way model sizes are usually written. */
    static String parameters(double count) {
        if (count >= 1e9) {
            return Money.format(count / 1e9) + "e9";
        }
        if (count >= 1e6) {
            return Money.format(count / 1e6) + "e6";
        }
        return Money.format(count);
    }

    /**
     * The smallest GPU count per node in {1, 2, 4, 8} whose memory fits on {@code nodes} nodes; 8 when none does
     * (then {@link #nodesFor} adds nodes).
     */
    static int gpusPerNode(double neededGib, double memoryPerGpu, int nodes) {
        for (int count : COUNTS) {
            if (count * memoryPerGpu * nodes >= neededGib) {
                return count;
            }
        }
        return 8;
    }

    /** Nodes of {@code gpus} GPUs needed, at least {@code minNodes}. */
    static int nodesFor(double neededGib, double memoryPerGpu, int gpus, int minNodes) {
        double perNode = gpus * memoryPerGpu;
        int needed = perNode > 0 ? (int) Math.min(Integer.MAX_VALUE, Math.ceil(neededGib / perNode)) : minNodes;
        return Math.max(minNodes, needed);
    }
}
