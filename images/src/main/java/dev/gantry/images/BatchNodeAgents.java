package dev.gantry.images;

import dev.gantry.api.Architecture;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * The Azure Batch node agent SKU that fits a marketplace image: a pool names both, and Batch refuses a pair that
 * does not match. Known Linux distributions and versions only; a custom image, an unknown one or Arm64 (for which
 * this table lists no agent) gets none, and a Batch pool then needs it set explicitly.
 */
public final class BatchNodeAgents {
    /** What an image id's offer and SKU must contain for an agent, in order (the first match wins). */
    private record Row(List<String> offerOrSku, String agent) {
    }

    private static final List<Row> TABLE = List.of(
            new Row(List.of("ubuntu-2404", "ubuntu-24_04"), "batch.node.ubuntu 24.04"),
            new Row(List.of("ubuntu-2204", "jammy", "22_04"), "batch.node.ubuntu 22.04"),
            new Row(List.of("ubuntu-hpc:2204"), "batch.node.ubuntu 22.04"),
            new Row(List.of("ubuntu-2004", "focal", "20_04", "ubuntu-hpc:2004"), "batch.node.ubuntu 20.04"),
            new Row(List.of("almalinux-hpc:8", "almalinux:8", "almalinux-x86_64:8"), "batch.node.el 8"),
            new Row(List.of("almalinux:9", "almalinux-x86_64:9"), "batch.node.el 9"));

    private BatchNodeAgents() {
    }

    /**
     * @param imageId a marketplace image as {@code publisher:offer:sku:version}
     * @param architecture the VM size's CPU architecture
     */
    public static Optional<String> forImage(String imageId, Architecture architecture) {
        String[] parts = imageId.toLowerCase(Locale.ROOT).split(":");
        if (parts.length != 4 || architecture != Architecture.X64) {
            return Optional.empty();
        }
        String offerAndSku = parts[1] + ":" + parts[2];
        for (Row row : TABLE) {
            for (String pattern : row.offerOrSku()) {
                if (offerAndSku.contains(pattern)) {
                    return Optional.of(row.agent());
                }
            }
        }
        return Optional.empty();
    }
}
