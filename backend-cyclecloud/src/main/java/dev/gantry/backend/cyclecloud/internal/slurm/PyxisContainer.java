package dev.gantry.backend.cyclecloud.internal.slurm;

import dev.gantry.ssh.ShellQuoting;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A container the ranks run in through Pyxis (the Slurm plugin that starts Enroot containers): {@code srun}'s
 * {@code --container-image}, {@code --container-mounts} and {@code --container-workdir}. The image is given in
 * Enroot's form, where a registry is separated from the repository by {@code #}
 * ({@code nvcr.io#nvidia/pytorch:24.01-py3}); Docker Hub images carry no registry.
 *
 * @param image the image as the workload names it ({@code nvcr.io/nvidia/pytorch:24.01-py3})
 * @param mounts host paths mounted at the same path inside (the job directory, the checkpoint path)
 */
public record PyxisContainer(String image, List<String> mounts) {
    public PyxisContainer {
        Objects.requireNonNull(image, "image");
        mounts = List.copyOf(mounts);
        for (String mount : mounts) {
            if (!mount.startsWith("/") || mount.contains(",") || mount.contains(":")) {
                throw new IllegalArgumentException("a container mount is an absolute path without ',' or ':' (Pyxis "
                        + "separates mounts with them): " + mount);
            }
        }
    }

    /** The image in Enroot's form. */
    public String enrootImage() {
        int slash = image.indexOf('/');
        if (slash < 0) {
            return image;
        }
        String first = image.substring(0, slash);
        boolean registry = first.contains(".") || first.contains(":") || first.equals("localhost");
        if (!registry) {
            return image;
        }
        String rest = image.substring(slash + 1);
        // Enroot names Docker Hub without a registry; its official images keep their library/ prefix.
        return first.equals("docker.io") ? rest : first + "#" + rest;
    }

    List<String> srunOptions(String jobDirectory, Optional<String> workingDirectory) {
        Set<String> all = new LinkedHashSet<>();
        all.add(jobDirectory);
        all.addAll(mounts);
        List<String> words = new ArrayList<>();
        words.add(ShellQuoting.quote("--container-image=" + enrootImage()));
        words.add(ShellQuoting.quote("--container-mounts=" + String.join(",", all.stream().map(m -> m + ":" + m)
                .toList())));
        workingDirectory.ifPresent(dir -> words.add(ShellQuoting.quote("--container-workdir=" + dir)));
        return words;
    }
}
