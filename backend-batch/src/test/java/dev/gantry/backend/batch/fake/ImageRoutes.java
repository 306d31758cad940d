package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.ArrayList;
import java.util.List;

/**
 * {@code supportedimages}: a small built-in list in Batch's shape (a current Ubuntu with Docker, a GPU image with
 * Docker and the NVIDIA driver, and an image past its end of life), replaceable through
 * {@link BatchFake#supportedImages(List)}.
 */
final class ImageRoutes {
    private final FakeState state;
    List<ObjectNode> images = defaults();

    ImageRoutes(FakeState state) {
        this.state = state;
    }

    FakeResponse list(FakeRequest request) {
        return ODataList.page(request, state.baseUrl, "supportedimages", images, FilterTable.SUPPORTED_IMAGES,
                Selectable.IMAGE);
    }

    static List<ObjectNode> defaults() {
        List<ObjectNode> images = new ArrayList<>();
        images.add(image("batch.node.ubuntu 22.04", "canonical", "0001-com-ubuntu-server-jammy", "22_04-lts",
                null, "DockerCompatible"));
        images.add(image("batch.node.ubuntu 22.04", "microsoft-dsvm", "ubuntu-hpc", "2204", null,
                "DockerCompatible", "NvidiaTeslaDriverInstalled"));
        images.add(image("batch.node.ubuntu 20.04", "canonical", "0001-com-ubuntu-server-focal", "20_04-lts",
                "2024-04-30T00:00:00Z", "DockerCompatible"));
        return images;
    }

    static ObjectNode image(String sku, String publisher, String offer, String imageSku, String endOfLife,
            String... capabilities) {
        ObjectNode image = Json.object();
        image.put("nodeAgentSKUId", sku);
        ObjectNode reference = image.putObject("imageReference");
        reference.put("publisher", publisher);
        reference.put("offer", offer);
        reference.put("sku", imageSku);
        reference.put("version", "latest");
        image.put("osType", "linux");
        var list = image.putArray("capabilities");
        for (String capability : capabilities) {
            list.add(capability);
        }
        if (endOfLife != null) {
            image.put("batchSupportEndOfLife", endOfLife);
        }
        image.put("verificationType", "verified");
        return image;
    }
}
