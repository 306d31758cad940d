package dev.gantry.images;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.regex.Pattern;

/**
 * Redirects images from public registries to a private mirror: with {@code docker.io -> myacr.azurecr.io/dockerhub},
 * {@code ubuntu:22.04} becomes {@code myacr.azurecr.io/dockerhub/library/ubuntu:22.04}. Tags and digests are kept, so
 * a pinned digest still pins the same content.
 */
public final class RegistryMirrorRewriter implements ImageNameRewriter {
    /** The provider name that selects this rewriter in configuration. */
    public static final String NAME = "registry-mirror";
    private static final String MIRROR_PREFIX = "mirror.";
    private static final Pattern HOST = Pattern.compile(
            "[a-z0-9](?:[a-z0-9-]*[a-z0-9])?(?:\\.[a-z0-9](?:[a-z0-9-]*[a-z0-9])?)*(?::[0-9]{1,5})?");
    private static final Pattern PATH = Pattern.compile("[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*");

    private final Map<String, Mirror> mirrors;
    private final int priority;

    private record Mirror(String registry, String prefix) {
    }

    /**
     * @param mirrors source registry (e.g. {@code docker.io}, {@code nvcr.io}) to mirror location (a registry host
     *     with an optional path, e.g. {@code myacr.azurecr.io/nvcr})
     * @param priority the order among rewriters; higher runs first
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming each bad entry
     */
    public RegistryMirrorRewriter(Map<String, String> mirrors, int priority) {
        Objects.requireNonNull(mirrors, "mirrors");
        List<Problem> problems = new ArrayList<>();
        Map<String, Mirror> bound = new TreeMap<>();
        new TreeMap<>(mirrors).forEach((source, target) -> {
            String key = MIRROR_PREFIX + source;
            String from = source.strip().toLowerCase(Locale.ROOT);
            if (!HOST.matcher(from).matches()) {
                problems.add(Problem.of(key, "the source must be a registry host such as docker.io or nvcr.io, got '"
                        + source + "'"));
                return;
            }
            from = from.equals("index.docker.io") || from.equals("registry-1.docker.io")
                    ? ContainerImageName.DOCKER_HUB : from;
            String to = target == null ? "" : target.strip();
            int slash = to.indexOf('/');
            String host = slash < 0 ? to : to.substring(0, slash);
            String prefix = slash < 0 ? "" : to.substring(slash + 1);
            boolean pathOk = prefix.isEmpty() || List.of(prefix.split("/", -1)).stream()
                    .allMatch(part -> PATH.matcher(part).matches());
            if (!HOST.matcher(host).matches() || !(host.contains(".") || host.contains(":")
                    || host.equals("localhost")) || !pathOk) {
                problems.add(Problem.of(key, "the mirror must be a registry host with an optional lower-case path, "
                        + "e.g. myacr.azurecr.io/dockerhub, got '" + target + "'"));
                return;
            }
            bound.put(from, new Mirror(host, prefix));
        });
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        this.mirrors = Collections.unmodifiableMap(bound);
        this.priority = priority;
    }

    /**
     * Binds {@code mirror.<source-registry>=<mirror>} entries and an optional {@code priority} (an integer, default
     * 0); any other key is an error.
     */
    public static RegistryMirrorRewriter fromConfig(Map<String, String> config) {
        Map<String, String> mirrors = new TreeMap<>();
        List<Problem> problems = new ArrayList<>();
        int priority = 0;
        for (Map.Entry<String, String> entry : new TreeMap<>(config).entrySet()) {
            String key = entry.getKey();
            if (key.startsWith(MIRROR_PREFIX) && key.length() > MIRROR_PREFIX.length()) {
                mirrors.put(key.substring(MIRROR_PREFIX.length()), entry.getValue());
            } else if (key.equals("priority")) {
                try {
                    priority = Integer.parseInt(entry.getValue().strip());
                } catch (NumberFormatException e) {
                    problems.add(Problem.of("priority", "must be an integer, got '" + entry.getValue() + "'"));
                }
            } else {
                problems.add(Problem.of(key, "unknown registry-mirror setting; use mirror.<registry>=<mirror> "
                        + "(e.g. mirror.docker.io=myacr.azurecr.io/dockerhub) or priority=<integer>"));
            }
        }
        if (mirrors.isEmpty() && problems.isEmpty()) {
            problems.add(Problem.of("mirror", "name at least one mirror, e.g. "
                    + "mirror.docker.io=myacr.azurecr.io/dockerhub"));
        }
        try {
            RegistryMirrorRewriter rewriter = new RegistryMirrorRewriter(mirrors, priority);
            if (problems.isEmpty()) {
                return rewriter;
            }
        } catch (GantryException e) {
            problems.addAll(e.problems());
        }
        throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
    }

    @Override
    public String name() {
        return NAME;
    }

    @Override
    public int priority() {
        return priority;
    }

    @Override
    public Optional<ContainerImageName> rewrite(ContainerImageName image) {
        Mirror mirror = mirrors.get(image.registry());
        if (mirror == null) {
            return Optional.empty();
        }
        return Optional.of(image.relocate(mirror.registry(), mirror.prefix()));
    }

    /** Creates {@link RegistryMirrorRewriter}s from configuration; registered for {@link java.util.ServiceLoader}. */
    public static final class Provider implements ImageNameRewriterProvider {
        @Override
        public String name() {
            return NAME;
        }

        @Override
        public ImageNameRewriter create(Map<String, String> config) {
            return fromConfig(config);
        }
    }
}
