package dev.gantry.api.backend;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A backend's settings as a flat string map (nested YAML becomes dotted keys, list elements {@code key[i]}). Each
 * backend binds it to its own typed record with the getters here, which fail with {@link ErrorCode#CONFIG_INVALID}
 * naming the backend, the exact key, the value given and what is allowed, and, when the setting was read from a file,
 * where ({@code gantry.yaml:12:5}). To report every wrong key at once instead of the first, bind through
 * {@link ConfigProblems}.
 *
 * @param backend the backend's name
 * @param values the settings
 * @param locations where each key's value was read, for keys read from a file (SPI v2)
 */
public record BackendConfig(String backend, Map<String, String> values, Map<String, SourceLocation> locations) {
    private static final Pattern DURATION = Pattern.compile("(\\d+)(ms|s|m|h|d)");

    /**
     * Copies the maps, sorted by key.
     *
     * @param backend the backend's name, e.g. {@code manual}
     * @param values the settings by dotted key
     * @param locations where each key was read; may leave keys out
     * @throws NullPointerException when a component is null
     */
    public BackendConfig {
        Objects.requireNonNull(backend, "backend");
        values = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(values, "values")));
        locations = Collections.unmodifiableMap(new TreeMap<>(Objects.requireNonNull(locations, "locations")));
    }

    /**
     * Settings that were not read from a file (the SPI v1 form).
     *
     * @param backend the backend's name
     * @param values the settings by dotted key
     */
    public BackendConfig(String backend, Map<String, String> values) {
        this(backend, values, Map.of());
    }

    /**
     * Where a key's value was read.
     *
     * @param key the key, relative to the backend's section
     * @return the file, line and column; empty when it was not read from a file
     */
    public Optional<SourceLocation> locationOf(String key) {
        return Optional.ofNullable(locations.get(key));
    }

    /**
     * The full name of one of these settings, as users write it.
     *
     * @param key the key, relative to the backend's section, e.g. {@code hosts[0].port}
     * @return the name under {@code backends.NAME}, e.g. {@code backends.manual.hosts[0].port}
     */
    public String qualifiedKey(String key) {
        return "backends." + backend + "." + key;
    }

    /**
     * The full name of a setting with where it was read, for messages about its value that are not configuration
     * problems (an address that cannot be reached): {@code backends.cyclecloud.address at gantry.yaml:4:12}, or the
     * name alone when the key was not read from a file.
     *
     * @param key the key, relative to the backend's section
     * @return its full name, with {@code at FILE:LINE:COL} when known
     */
    public String describe(String key) {
        return qualifiedKey(key) + locationOf(key).map(where -> " at " + where).orElse("");
    }

    /**
     * No settings at all, as for a backend whose section is absent.
     *
     * @param backend the backend's name
     * @return settings without keys
     */
    public static BackendConfig empty(String backend) {
        return new BackendConfig(backend, Map.of());
    }

    /**
     * A setting as given.
     *
     * @param key the key
     * @return its value, untrimmed; empty when absent
     */
    public Optional<String> get(String key) {
        return Optional.ofNullable(values.get(key));
    }

    /**
     * A setting that must be given.
     *
     * @param key the key
     * @return its value
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming the key when it is absent or blank
     */
    public String require(String key) {
        String value = values.get(key);
        if (value == null || value.isBlank()) {
            throw invalid(key, "is required");
        }
        return value;
    }

    /**
     * A text setting.
     *
     * @param key the key
     * @param defaultValue what to return when it is absent; may be null
     * @return its value as given, or {@code defaultValue}
     */
    public String getString(String key, String defaultValue) {
        return values.getOrDefault(key, defaultValue);
    }

    /**
     * A whole-number setting within bounds.
     *
     * @param key the key
     * @param defaultValue what to return when it is absent (not checked against the bounds)
     * @param min the smallest value allowed
     * @param max the largest value allowed
     * @return its value
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming the key when it is not a whole number or out
     *     of bounds
     */
    public int getInt(String key, int defaultValue, int min, int max) {
        String text = values.get(key);
        if (text == null) {
            return defaultValue;
        }
        try {
            int value = Integer.parseInt(text.trim());
            if (value < min || value > max) {
                throw invalid(key, "must be between " + min + " and " + max + ", got " + value);
            }
            return value;
        } catch (NumberFormatException e) {
            throw invalid(key, "must be a whole number, got '" + text + "'");
        }
    }

    /**
     * A true-or-false setting.
     *
     * @param key the key
     * @param defaultValue what to return when it is absent
     * @return its value
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming the key when it is neither {@code true} nor
     *     {@code false}
     */
    public boolean getBoolean(String key, boolean defaultValue) {
        String text = values.get(key);
        if (text == null) {
            return defaultValue;
        }
        return switch (text.trim()) {
            case "true" -> true;
            case "false" -> false;
            default -> throw invalid(key, "must be true or false, got '" + text + "'");
        };
    }

    /**
     * A duration setting, written as {@code 500ms}, {@code 30s}, {@code 5m}, {@code 2h} or {@code 1d}.
     *
     * @param key the key
     * @param defaultValue what to return when it is absent; may be null
     * @return its value
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming the key when it is not a whole number with one
     *     of those units
     */
    public Duration getDuration(String key, Duration defaultValue) {
        String text = values.get(key);
        if (text == null) {
            return defaultValue;
        }
        Matcher m = DURATION.matcher(text.trim());
        if (!m.matches()) {
            throw invalid(key, "must be a duration such as 30s, 5m or 2h, got '" + text + "'");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            case "h" -> Duration.ofHours(n);
            default -> Duration.ofDays(n);
        };
    }

    /**
     * A setting that must be one of the allowed values, compared exactly.
     *
     * @param key the key
     * @param defaultValue what to return when it is absent; may be null
     * @param allowed the values accepted
     * @return its value, or {@code defaultValue}
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} naming the key and listing the values allowed
     */
    public String getChoice(String key, String defaultValue, List<String> allowed) {
        String value = values.getOrDefault(key, defaultValue);
        if (value != null && !allowed.contains(value)) {
            throw invalid(key, "must be one of " + String.join(", ", allowed) + ", got '" + value + "'");
        }
        return value;
    }

    /**
     * A list setting, written as {@code key[0]}, {@code key[1]}, ...; or as one comma-separated value under key.
     *
     * @param key the list's key, without an index
     * @return the comma-separated values (trimmed, blanks dropped) and then the indexed ones; empty when absent
     */
    public List<String> getList(String key) {
        List<String> result = new ArrayList<>();
        if (values.containsKey(key)) {
            for (String part : values.get(key).split(",")) {
                if (!part.isBlank()) {
                    result.add(part.trim());
                }
            }
        }
        for (int i = 0; values.containsKey(key + "[" + i + "]"); i++) {
            result.add(values.get(key + "[" + i + "]"));
        }
        return result;
    }

    /**
     * The number of elements of a list of objects.
     *
     * @param listKey the list's key, e.g. {@code hosts}
     * @return the highest index given plus one, e.g. 2 for {@code hosts[0].address}, {@code hosts[1].address}; 0 when
     *     none
     */
    public int count(String listKey) {
        TreeSet<Integer> indexes = new TreeSet<>();
        Pattern element = Pattern.compile(Pattern.quote(listKey) + "\\[(\\d+)](?:\\..*)?");
        for (String key : values.keySet()) {
            Matcher m = element.matcher(key);
            if (m.matches()) {
                indexes.add(Integer.parseInt(m.group(1)));
            }
        }
        return indexes.isEmpty() ? 0 : indexes.last() + 1;
    }

    /**
     * The settings under a prefix, without it: {@code subset("hosts[0]")} turns {@code hosts[0].port} into {@code port}.
     *
     * @param prefix the dotted prefix, e.g. {@code hosts[0]} or {@code login}
     * @return the settings under it, named {@code BACKEND.PREFIX} so that messages give the full key, with their
     *     locations
     */
    public BackendConfig subset(String prefix) {
        Map<String, String> inner = new TreeMap<>();
        Map<String, SourceLocation> innerLocations = new TreeMap<>();
        String dotted = prefix + ".";
        values.forEach((key, value) -> {
            if (key.startsWith(dotted)) {
                inner.put(key.substring(dotted.length()), value);
            }
        });
        locations.forEach((key, where) -> {
            if (key.equals(prefix)) {
                innerLocations.put("", where); // the mapping itself: where its left-out keys belong
            } else if (key.startsWith(dotted)) {
                innerLocations.put(key.substring(dotted.length()), where);
            }
        });
        return new BackendConfig(backend + "." + prefix, inner, innerLocations);
    }

    /**
     * Keys given that none of the declarations accepts: typos, usually.
     *
     * @param accepted the keys the backend declares
     * @return the keys given and not accepted, sorted; empty when all are
     */
    public List<String> unknownKeys(List<ConfigKey> accepted) {
        List<String> unknown = new ArrayList<>();
        for (String key : values.keySet()) {
            if (accepted.stream().noneMatch(k -> k.matches(key))) {
                unknown.add(key);
            }
        }
        return unknown;
    }

    /**
     * A CONFIG_INVALID error for one key of this backend's settings: {@code FILE:LINE:COL: backends.NAME.KEY: message}
     * when the key was read from a file, else without the location. It carries the one {@link #problem}.
     *
     * @param key the key, relative to the backend's section
     * @param message what is wrong: the value given, what is allowed
     * @return the exception, to throw
     */
    public GantryException invalid(String key, String message) {
        return GantryException.invalid(ErrorCode.CONFIG_INVALID, List.of(problem(key, message)));
    }

    /**
     * The problem with one key of these settings, located where it was read; a key that was not written at all (a
     * required key left out) is located at the mapping that should hold it ({@code hosts[0]}, or the backend's own
     * section), where the file reader recorded one.
     *
     * @param key the key, relative to the backend's section
     * @param message what is wrong
     * @return the problem under the key's full name
     */
    public Problem problem(String key, String message) {
        Problem problem = Problem.of(qualifiedKey(key), message);
        Optional<SourceLocation> where = locationOf(key);
        String enclosing = key;
        while (where.isEmpty() && !values.containsKey(key) && !enclosing.isEmpty()) {
            int cut = Math.max(enclosing.lastIndexOf('.'), enclosing.lastIndexOf('['));
            enclosing = cut < 0 ? "" : enclosing.substring(0, cut);
            where = locationOf(enclosing);
        }
        return where.map(problem::at).orElse(problem);
    }

    @Override
    public String toString() {
        // Values may hold secrets (even when they should be references): print the keys only.
        return "BackendConfig[" + backend + ", keys=" + values.keySet() + "]";
    }
}
