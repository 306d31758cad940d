package org.example.gantry.podman.internal;

import dev.gantry.api.GantryException;
import dev.gantry.api.ErrorCode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * How a job's environment reaches the container without a value on podman's command line: {@code podman run} gets
 * {@code --env NAME} (the name alone), which podman reads from its own environment, where the plugin puts the value.
 * That carries any value verbatim (quotes, newlines, a secret) and keeps it out of the process list.
 *
 * <p>Names that podman itself reads from its environment (its search path, home, storage and registry settings) cannot
 * travel that way without changing how podman runs: those few go in an env file instead, a 0600 file that lives only
 * while {@code podman run} reads it.
 *
 * @param names the {@code --env} names, in order
 * @param processEnvironment the values podman's process gets for them
 * @param envFile the env-file lines ({@code NAME=VALUE}) of the names podman reads itself; empty when none
 */
public record ContainerEnvironment(List<String> names, Map<String, String> processEnvironment, String envFile) {
    public ContainerEnvironment {
        names = List.copyOf(names);
        processEnvironment = Map.copyOf(processEnvironment);
    }

    /** Splits {@code environment} (name to value, in order) between podman's environment and an env file. */
    public static ContainerEnvironment of(Map<String, String> environment) {
        List<String> names = new ArrayList<>();
        Map<String, String> process = new LinkedHashMap<>();
        StringBuilder file = new StringBuilder();
        environment.forEach((name, value) -> {
            if (readByPodman(name)) {
                problem(name, value).ifPresent(problem -> {
                    throw new GantryException(ErrorCode.PLAN_REJECTED, "env." + name + ": " + problem);
                });
                file.append(name).append('=').append(value).append('\n');
            } else {
                names.add(name);
                process.put(name, value);
            }
        });
        return new ContainerEnvironment(names, process, file.toString());
    }

    /** Why a variable cannot reach the container, if it cannot: a name podman reads itself, with a line break. */
    public static java.util.Optional<String> problem(String name, String value) {
        if (readByPodman(name) && (value.indexOf('\n') >= 0 || value.indexOf('\r') >= 0)) {
            return java.util.Optional.of("podman reads " + name + " itself, so its value travels in an env file,"
                    + " which holds one line per variable; the value given has a line break (allowed: a value on"
                    + " one line); put the lines in a file the job reads, or use another name");
        }
        return java.util.Optional.empty();
    }

    /**
     * Whether podman's client reads {@code name} from its own environment: the program search path, the dynamic
     * loader, its home and runtime directories, its container, storage and registry configuration, proxies.
     */
    static boolean readByPodman(String name) {
        String upper = name.toUpperCase(java.util.Locale.ROOT);
        return List.of("PATH", "HOME", "TMPDIR", "USER", "NOTIFY_SOCKET", "HTTP_PROXY", "HTTPS_PROXY", "NO_PROXY",
                "FTP_PROXY", "ALL_PROXY", "TZ", "GODEBUG", "GOMAXPROCS", "GOGC", "GOTRACEBACK").contains(upper)
                || upper.startsWith("LD_") || upper.startsWith("XDG_") || upper.startsWith("CONTAINER")
                || upper.startsWith("STORAGE_") || upper.startsWith("BUILDAH_") || upper.startsWith("PODMAN_")
                || upper.startsWith("REGISTRY_AUTH") || upper.startsWith("DOCKER_");
    }
}
