package dev.gantry.core.advisor;

import dev.gantry.api.ImageRef;
import dev.gantry.api.Reason;
import dev.gantry.api.VmSize;
import dev.gantry.api.Workload;
import dev.gantry.images.ImageChoice;
import dev.gantry.images.ImageChooser;
import java.util.List;

/** An image chooser with one fixed rule, so that advisor tests do not depend on the images module's choices. */
final class FakeImages implements ImageChooser {
    static final ImageRef HPC = ImageRef.marketplace("Ubuntu HPC 22.04", "microsoft-dsvm:ubuntu-hpc:2204:latest");
    static final ImageRef DSVM = ImageRef.marketplace("Data Science VM Ubuntu 22.04",
            "microsoft-dsvm:ubuntu-2204:2204-gen2:latest");

    @Override
    public ImageChoice choose(VmSize size, Workload workload) {
        ImageRef image = size.rdma() ? HPC : DSVM;
        return new ImageChoice(image, List.of(new Reason("I1", (size.rdma() ? "RDMA size: HPC image" : "Data "
                + "Science VM") + " (test chooser)")), List.of());
    }
}
