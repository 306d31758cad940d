package dev.gantry.core.config;

import dev.gantry.api.GantryException;
import dev.gantry.api.NearMiss;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.spec.yaml.Binder;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * The value rules shared by the file, the environment and command-line flags, so that each layer checks a setting
 * the same way. Each check returns an error message (naming the value and what is allowed) or empty when valid.
 */
final class SettingRules {
    static final String POSTGRESQL_URL = "jdbc:postgresql://";
    static final Pattern BACKEND_NAME = Pattern.compile("[a-z][a-z0-9-]{0,62}");
    static final Pattern REGION = Pattern.compile("[a-z][a-z0-9]*");
    static final List<String> SPOT_POLICIES = Arrays.stream(SpotPolicy.values())
            .map(p -> p.name().toLowerCase(Locale.ROOT)).collect(Collectors.toList());
    static final String POLL_INTERVAL_HELP = "a duration from 1s to 1h such as 5s, 30s or 1m";
    static final String ZONES_HELP = "REGION=ZONE[,ZONE...] per region, separated by ';', such as eastus=1,2;westus2=3";
    static final Pattern WHOLE_NUMBER = Pattern.compile("[+-]?\\d{1,9}");

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

    /** A state server's JDBC URL: PostgreSQL's, with no credentials in it (they would be printed and logged). */
    static Optional<String> checkStateUrl(String text) {
        String url = text.trim();
        if (url.isEmpty()) {
            return Optional.of("must be a PostgreSQL JDBC URL such as jdbc:postgresql://db.example.com:5432/gantry, "
                    + "got ''");
        }
        String lower = url.toLowerCase(Locale.ROOT);
        int query = lower.indexOf('?');
        String authority = lower.startsWith(POSTGRESQL_URL) ? lower.substring(POSTGRESQL_URL.length()) : "";
        int slash = authority.indexOf('/');
        if ((slash < 0 ? authority : authority.substring(0, slash)).contains("@")
                || (query >= 0 && ("&" + lower.substring(query + 1)).contains("&password="))) {
            // The value is not echoed: it holds a password.
            return Optional.of("must not hold a password; give it as state.password, a secret reference such as "
                    + "env:GANTRY_STATE_PASSWORD or file:~/.gantry/state-password");
        }
        if (!lower.startsWith(POSTGRESQL_URL) || slash <= 0 || slash == authority.length() - 1
                || authority.charAt(slash + 1) == '?') {
            return Optional.of("must be a PostgreSQL JDBC URL, jdbc:postgresql://HOST[:PORT]/DATABASE, got '" + url
                    + "'" + (lower.startsWith("jdbc:sqlite:") ? "; the SQLite database is the file state.db in "
                    + "state.dir: set state.dir instead" : ""));
        }
        if (url.chars().anyMatch(c -> c <= ' ')) {
            return Optional.of("must not contain spaces or control characters, got '" + url.strip() + "'");
        }
        return Optional.empty();
    }

    static Optional<String> checkStateUser(String text) {
        if (text.isBlank() || text.indexOf('\0') >= 0) {
            return Optional.of("must be the name of a database role, got '" + text.replace("\0", "\\0") + "'");
        }
        return Optional.empty();
    }

    /**
     * A password given as a secret reference. What does not parse as one is not echoed: it is most likely the
     * password itself.
     */
    static Optional<String> checkPasswordReference(String text) {
        String trimmed = text.trim();
        boolean looksLikeReference = trimmed.startsWith("env:") || trimmed.startsWith("file:")
                || trimmed.startsWith("https://");
        try {
            SecretRef.parse(trimmed);
            return Optional.empty();
        } catch (GantryException e) {
            return Optional.of(looksLikeReference ? e.problems().get(0).message()
                    : "must be a secret reference, env:NAME, file:PATH or https://VAULT.vault.azure.net/secrets/NAME, "
                    + "not the password itself (the value given is not shown)");
        }
    }

    /** {@code runs.pollInterval}: a duration as Gantry writes them, from 1s to 1h. */
    static Optional<String> checkPollInterval(String text) {
        Optional<Duration> parsed = Binder.parseDuration(text);
        if (parsed.isEmpty()) {
            String trimmed = text.trim();
            String hint = WHOLE_NUMBER.matcher(trimmed).matches() ? "; add a unit, e.g. " + trimmed + "s"
                    : trimmed.endsWith("ms") ? "; durations are whole seconds, the shortest is 1s" : "";
            return Optional.of("must be " + POLL_INTERVAL_HELP + ", got '" + trimmed + "'" + hint);
        }
        Duration interval = parsed.get();
        if (interval.compareTo(RunSettings.MIN_POLL_INTERVAL) < 0
                || interval.compareTo(RunSettings.MAX_POLL_INTERVAL) > 0) {
            return Optional.of(RunSettings.pollIntervalRange(text.trim()));
        }
        return Optional.empty();
    }

    static Duration pollInterval(String text) {
        return Binder.parseDuration(text).orElseThrow();
    }

    /** {@code runs.maxJobs}: a whole number of 1 or more. */
    static Optional<String> checkMaxJobs(String text) {
        String trimmed = text.trim();
        boolean valid = WHOLE_NUMBER.matcher(trimmed).matches() && trimmed.length() <= 9
                && Integer.parseInt(trimmed) >= 1;
        return valid ? Optional.empty() : Optional.of(RunSettings.maxJobsRange(trimmed));
    }

    static int maxJobs(String text) {
        return Integer.parseInt(text.trim());
    }

    /** {@code spot.onDemandAfterEvictions}: a whole number from 0 to 100. */
    static Optional<String> checkOnDemandAfterEvictions(String text) {
        return checkEvictionCount(text, RunSettings.MAX_ON_DEMAND_AFTER_EVICTIONS,
                RunSettings::onDemandAfterEvictionsRange);
    }

    static int onDemandAfterEvictions(String text) {
        return Integer.parseInt(text.trim());
    }

    /** {@code spot.nextRegionAfterEvictions}: a whole number from 0 to 100. */
    static Optional<String> checkNextRegionAfterEvictions(String text) {
        return checkEvictionCount(text, RunSettings.MAX_NEXT_REGION_AFTER_EVICTIONS,
                RunSettings::nextRegionAfterEvictionsRange);
    }

    static int nextRegionAfterEvictions(String text) {
        return Integer.parseInt(text.trim());
    }

    /** A whole number from 0 to {@code max}, or the setting's own message for what was given. */
    private static Optional<String> checkEvictionCount(String text, int max,
                                                       java.util.function.UnaryOperator<String> range) {
        String trimmed = text.trim();
        boolean valid = WHOLE_NUMBER.matcher(trimmed).matches() && Integer.parseInt(trimmed) >= 0
                && Integer.parseInt(trimmed) <= max;
        return valid ? Optional.empty() : Optional.of(range.apply(trimmed));
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

    /**
     * {@code defaults.zones} as text (environment, flags): {@code REGION=ZONE,ZONE} per region, separated by
     * {@code ;}. Checked by the rule of a workload's zones ({@link Workload#zoneProblems}); the first problem is
     * given with its path, {@code defaults.zones.eastus[0]: ...}.
     */
    static Optional<String> checkZones(String text) {
        for (String part : text.split(";")) {
            if (!part.isBlank() && part.indexOf('=') < 0) {
                return Optional.of("must be " + ZONES_HELP + ", got '" + part.trim() + "'");
            }
        }
        List<String> seen = new ArrayList<>();
        for (String part : text.split(";")) {
            String region = part.isBlank() ? "" : part.substring(0, part.indexOf('=')).trim();
            if (!region.isEmpty() && seen.contains(region)) {
                return Optional.of("region '" + region + "' is given twice; give each region's zones once, e.g. "
                        + "eastus=1,2;westus2=3");
            }
            seen.add(region);
        }
        return Workload.zoneProblems(ConfigSources.ZONES, zones(text), List.of()).stream().findFirst()
                .map(p -> p.path() + ": " + p.message());
    }

    /** {@code eastus=1,2;westus2=3} as zones per region, in order (empty text: none); check it first. */
    static Map<String, List<String>> zones(String text) {
        Map<String, List<String>> zones = new LinkedHashMap<>();
        for (String part : text.split(";")) {
            if (part.isBlank()) {
                continue;
            }
            int cut = part.indexOf('=');
            List<String> names = new ArrayList<>();
            for (String zone : part.substring(cut + 1).split(",")) {
                if (!zone.isBlank()) {
                    names.add(zone.trim());
                }
            }
            zones.put(part.substring(0, cut).trim(), names);
        }
        return zones;
    }

    static SpotPolicy spot(String text) {
        return SpotPolicy.valueOf(text.toUpperCase(Locale.ROOT));
    }
}
