package dev.gantry.backend.batch.internal.validate;

import com.microsoft.azure.batch.protocol.models.ImageInformation;
import com.microsoft.azure.batch.protocol.models.ImageReference;
import java.time.Instant;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * One marketplace image Batch supports with a node agent SKU, as {@code supportedimages} lists it.
 *
 * @param nodeAgentSku e.g. {@code batch.node.ubuntu 22.04}
 * @param publisher the image's publisher
 * @param offer its offer
 * @param sku its SKU
 * @param capabilities e.g. {@code DockerCompatible}, {@code NvidiaTeslaDriverInstalled}
 * @param endOfLife when Batch stops supporting it, if announced ({@code batchSupportEndOfLife})
 */
public record SupportedImage(String nodeAgentSku, String publisher, String offer, String sku, Set<String> capabilities,
                             Optional<Instant> endOfLife) {
    public static final String DOCKER_COMPATIBLE = "DockerCompatible";
    public static final String NVIDIA_DRIVER = "NvidiaTeslaDriverInstalled";

    public SupportedImage {
        Objects.requireNonNull(nodeAgentSku, "nodeAgentSku");
        Objects.requireNonNull(publisher, "publisher");
        Objects.requireNonNull(offer, "offer");
        Objects.requireNonNull(sku, "sku");
        capabilities = Set.copyOf(capabilities);
        Objects.requireNonNull(endOfLife, "endOfLife");
    }

    static SupportedImage of(ImageInformation image) {
        ImageReference reference = image.imageReference();
        List<String> capabilities = image.capabilities() == null ? List.of() : image.capabilities();
        return new SupportedImage(image.nodeAgentSKUId(), text(reference == null ? null : reference.publisher()),
                text(reference == null ? null : reference.offer()), text(reference == null ? null : reference.sku()),
                Set.copyOf(capabilities), Optional.ofNullable(image.batchSupportEndOfLife())
                        .map(time -> Instant.ofEpochMilli(time.getMillis())));
    }

    /** Whether this is the marketplace image {@code publisher:offer:sku} (compared without case, as Azure does). */
    public boolean isImage(String publisher, String offer, String sku) {
        return lower(this.publisher).equals(lower(publisher)) && lower(this.offer).equals(lower(offer))
                && lower(this.sku).equals(lower(sku));
    }

    /** The image as a URN without its version. */
    public String urn() {
        return publisher + ":" + offer + ":" + sku;
    }

    private static String text(String value) {
        return value == null ? "" : value;
    }

    private static String lower(String value) {
        return value.toLowerCase(Locale.ROOT);
    }
}
