package dev.gantry.azure.vm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.azure.resourcemanager.compute.models.ImageReference;
import dev.gantry.api.ImageRef;
import dev.gantry.azure.fakes.ArmFake;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ArmTemplatesTest {
    @Test
    void aGalleryImageIsReferencedByIdAndAMarketplaceImageByItsFourParts() {
        String id = "/subscriptions/" + ArmFake.SUBSCRIPTION + "/resourceGroups/images/providers/Microsoft.Compute/"
                + "galleries/gantry/images/ubuntu-cuda/versions/1.2.0";
        ImageReference gallery = ArmTemplates.imageReference(new ImageRef("cuda", id, ImageRef.Kind.GALLERY));
        assertEquals(id, gallery.id());
        assertNull(gallery.publisher());

        ImageReference marketplace = ArmTemplates.imageReference(
                ImageRef.marketplace("Ubuntu", "canonical:ubuntu-24_04-lts:server:24.04.202411030"));
        assertEquals("canonical|ubuntu-24_04-lts|server|24.04.202411030", String.join("|", marketplace.publisher(),
                marketplace.offer(), marketplace.sku(), marketplace.version()));
        assertNull(marketplace.id());
    }

    @Test
    void theNicJoinsTheSubnetAndOnlyGetsAPublicIpAndSecurityGroupWhenGiven() {
        Map<String, String> tags = Map.of("gantry:managed", "true");
        var privateNic = ArmTemplates.nic("eastus", tags, "/subnet-id", Optional.empty(), Optional.empty(), false);
        var config = privateNic.ipConfigurations().get(0);
        assertEquals("/subnet-id", config.subnet().id());
        assertNull(config.publicIpAddress());
        assertNull(privateNic.networkSecurityGroup());

        var publicNic = ArmTemplates.nic("eastus", tags, "/subnet-id", Optional.of("/ip-id"), Optional.of("/nsg-id"), false);
        assertEquals("/ip-id", publicNic.ipConfigurations().get(0).publicIpAddress().id());
        assertEquals("/nsg-id", publicNic.networkSecurityGroup().id());
        assertEquals("eastus", publicNic.location());
    }
}
