package dev.gantry.hosts.probe;

import java.util.Objects;

/**
 * The host's operating system, from {@code /etc/os-release}.
 *
 * @param id the distribution id, e.g. {@code ubuntu}
 * @param name the distribution name, e.g. {@code Ubuntu}
 * @param version the version id, e.g. {@code 22.04}
 * @param prettyName the full name, e.g. {@code Ubuntu 22.04.4 LTS}
 */
public record OsRelease(String id, String name, String version, String prettyName) {
    public OsRelease {
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(version, "version");
        Objects.requireNonNull(prettyName, "prettyName");
    }
}
