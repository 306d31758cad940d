package dev.gantry.core.config;

import dev.gantry.api.NearMiss;
import dev.gantry.api.SpotPolicy;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The value rules shared by the file, the environment and command-line flags, so that each layer checks a setting
 * the same way. Each check returns an error message (naming the value and what is allowed) or empty when valid.
 */
final class SettingRules {
    static final Pattern BACKEND_NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");
    static final List<String> SPOT_POLICIES = Arrays.stream(SpotPolicy.values())
            .map(p -> p.name().toLowerCase(Locale.ROOT)).collect(Collectors.toList());

    private SettingRules() {
    }

    static Optional<String> checkBackendName(String name) {
        if (BACKEND_NAME.matcher(name).matches()) {
            return Optional.empty();
        }
        return Optional.of("must be a backend name of lower-case letters, digits and '-' (such as manual, "
                + "cyclecloud, batch or aks), got '" + name + "'");
    }

    static Optional<String> checkRegion(String region) {
        if (REGION.matcher(region).matches()) {
            return Optional.empty();
        }
        return Optional.of("must be an Azure region name such as eastus or westus2, got '" + region + "'");
    }

    static Optional<String> checkChoice(String given, List<String> allowed) {
        if (allowed.contains(given)) {
            return Optional.empty();
        }
        return Optional.of("must be one of " + String.join(", ", allowed) + ", got '" + given + "'"
                + NearMiss.suggestion(given, allowed));
    }

    static Optional<String> checkPath(String text) {
        if (text.isBlank()) {
            return Optional.of("must be a path, got ''");
        }
        if (text.indexOf('\0') >= 0) {
            return Optional.of("must not contain a NUL character");
        }
        return Optional.empty();
    }

    /** {@code ~} and {@code ~/x} are under home; other relative paths are under {@code base}. */
    static Path resolvePath(String text, Path home, Path base) {
        String trimmed = text.trim();
        if (trimmed.equals("~")) {
            return home;
        }
        if (trimmed.startsWith("~/")) {
            return home.resolve(trimmed.substring(2)).normalize();
        }
        Path path = Path.of(trimmed);
        return path.isAbsolute() ? path : base.resolve(path).normalize();
    }

    static List<String> splitRegions(String text) {
        List<String> regions = new ArrayList<>();
        for (String part : text.split(",")) {
            if (!part.isBlank()) {
                regions.add(part.trim());
            }
        }
        return regions;
    }

    static SpotPolicy spot(String text) {
        return SpotPolicy.valueOf(text.toUpperCase(Locale.ROOT));
    }
}
