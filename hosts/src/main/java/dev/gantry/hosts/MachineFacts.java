package dev.gantry.hosts;

import java.util.OptionalDouble;

/**
 * What a machine has, for checking a plan against it.
 *
 * @param vcpus logical processors
 * @param memoryGib total memory, empty when it cannot be read
 * @param nvidiaGpus NVIDIA GPUs listed by {@code nvidia-smi -L}; 0 when the tool is absent
 */
public record MachineFacts(int vcpus, OptionalDouble memoryGib, int nvidiaGpus) {
}
