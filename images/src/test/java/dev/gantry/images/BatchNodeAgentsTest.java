package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.api.Architecture;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class BatchNodeAgentsTest {
    @Test
    void everyBuiltInX64ImageHasTheUbuntu2204Agent() {
        for (VmImage image : new VmImage[] {ImageCatalog.DSVM_GEN2, ImageCatalog.DSVM_GEN1, ImageCatalog.HPC,
                ImageCatalog.HPC_ROCM}) {
            assertEquals(Optional.of("batch.node.ubuntu 22.04"), BatchNodeAgents.forImage(image.id(),
                    Architecture.X64), image.name());
        }
    }

    @Test
    void otherKnownDistributionsGetTheirAgent() {
        assertEquals(Optional.of("batch.node.ubuntu 20.04"),
                BatchNodeAgents.forImage("Canonical:0001-com-ubuntu-server-focal:20_04-lts-gen2:latest",
                        Architecture.X64));
        assertEquals(Optional.of("batch.node.ubuntu 24.04"),
                BatchNodeAgents.forImage("Canonical:ubuntu-24_04-lts:server:latest", Architecture.X64));
        assertEquals(Optional.of("batch.node.el 8"),
                BatchNodeAgents.forImage("almalinux:almalinux-hpc:8_7-hpc-gen2:latest", Architecture.X64));
    }

    @Test
    void arm64CustomAndUnknownImagesGetNone() {
        assertEquals(Optional.empty(), BatchNodeAgents.forImage(ImageCatalog.UBUNTU_ARM64.id(), Architecture.ARM64));
        assertEquals(Optional.empty(), BatchNodeAgents.forImage(
                "/subscriptions/s/resourceGroups/rg/providers/Microsoft.Compute/galleries/g/images/i/versions/1",
                Architecture.X64));
        assertEquals(Optional.empty(), BatchNodeAgents.forImage("SUSE:sles-15-sp5:gen2:latest", Architecture.X64));
    }
}
