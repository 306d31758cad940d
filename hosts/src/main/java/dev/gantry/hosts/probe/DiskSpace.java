package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * Free space where jobs write.
 *
 * @param path the directory measured (the work directory, or its nearest existing parent)
 * @param mountPoint the file system's mount point
 * @param freeGib space available to unprivileged users, GiB
 */
public record DiskSpace(String path, String mountPoint, double freeGib) {
    public DiskSpace {
        Objects.requireNonNull(path, "path");
        Objects.requireNonNull(mountPoint, "mountPoint");
    }
}
