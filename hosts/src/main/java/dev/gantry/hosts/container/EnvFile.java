package dev.gantry.hosts.container;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A container's environment in the {@code --env-file} format Docker and Podman share: one {@code NAME=VALUE} per
 * line, the value taken verbatim up to the end of the line. The format cannot hold every value: a line ends at a
 * newline (a value with one would be cut and its tail read as another variable), a carriage return before a newline
 * is dropped, and a line is read with a 64 KiB buffer. Such a value is listed by name alone, a line the runtimes
 * read as "take this variable from my own environment", and travels in the runtime process's environment instead:
 * never split, never on a command line.
 *
 * @param text the file's content
 * @param byName the variables listed by name, which the runtime process's environment must carry
 */
public record EnvFile(String text, Map<String, String> byName) {
    /** Well below the runtimes' 64 KiB line buffer. */
    static final int MAX_LINE = 32 * 1024;

    public EnvFile {
        byName = Collections.unmodifiableMap(new LinkedHashMap<>(byName));
    }

    /** The file for an environment, variables in the order given. */
    public static EnvFile of(Map<String, String> environment) {
        StringBuilder text = new StringBuilder();
        Map<String, String> byName = new LinkedHashMap<>();
        for (Map.Entry<String, String> variable : environment.entrySet()) {
            String name = variable.getKey();
            String value = variable.getValue();
            if (representable(name, value)) {
                text.append(name).append('=').append(value).append('\n');
            } else {
                text.append(name).append('\n');
                byName.put(name, value);
            }
        }
        return new EnvFile(text.toString(), byName);
    }

    /**
     * Whether the runtime's client reads this variable itself, so it must not carry a job's value: the program
     * search path, the dynamic loader's settings, the client's own configuration.
     */
    public static boolean readByRuntimeClient(String name) {
        return List.of("PATH", "HOME", "TMPDIR", "XDG_RUNTIME_DIR", "XDG_CONFIG_HOME", "XDG_DATA_HOME")
                .contains(name) || name.startsWith("LD_") || name.startsWith("DOCKER_")
                || name.startsWith("CONTAINERS_") || name.startsWith("REGISTRY_AUTH");
    }

    /** The names whose values travel in the runtime's environment. */
    public List<String> namesOnly() {
        return new ArrayList<>(byName.keySet());
    }

    private static boolean representable(String name, String value) {
        return value.indexOf('\n') < 0 && value.indexOf('\r') < 0 && name.length() + value.length() + 1 < MAX_LINE;
    }
}
