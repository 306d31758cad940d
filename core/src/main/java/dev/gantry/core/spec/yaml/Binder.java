package dev.gantry.core.spec.yaml;

import dev.gantry.api.GantryException;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import java.math.BigDecimal;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

/**
 * Reads typed values out of one located YAML document and collects every problem with its file, line, column and
 * field path. Structural checks (type, enum, unknown field, syntax of durations and sizes) live here; semantic checks
 * stay in the API records' constructors, whose problems {@link #construct} locates by their field path.
 *
 * <p>Field problems are placed at the field's key (the example {@code train.yaml:12:5: resources.gpus: ...} points at
 * {@code gpus:}); list elements at the element. Not thread-safe: one instance per document.
 */
public final class Binder {
    private static final Pattern DURATION = Pattern.compile("(?:(\\d{1,9})d)?(?:(\\d{1,9})h)?(?:(\\d{1,9})m)?(?:(\\d{1,9})s)?");
    private static final Pattern SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)(?:(Mi|Gi|Ti)B?)?");
    private static final Pattern DECIMAL_SIZE = Pattern.compile("(\\d+(?:\\.\\d+)?)\\s*([MGT])B?", Pattern.CASE_INSENSITIVE);
    public static final String DURATION_HELP = "a duration such as 30s, 30m, 2h, 1h30m or 1d";
    public static final String SIZE_HELP = "a size such as 80Gi, 512Mi or 1Ti, or a number of GiB";

    private final String fileName;
    private final List<Problem> problems = new ArrayList<>();
    private final Set<String> reportedPaths = new LinkedHashSet<>();
    private final Map<String, SourceLocation> locations = new HashMap<>();

    public Binder(String fileName) {
        this.fileName = fileName;
    }

    public String fileName() {
        return fileName;
    }

    /** Every problem so far, ordered by line, then column (reading order within one place). */
    public List<Problem> problems() {
        List<Problem> sorted = new ArrayList<>(problems);
        sorted.sort(Comparator.comparingInt((Problem p) -> p.location().map(SourceLocation::line).orElse(0))
                .thenComparingInt(p -> p.location().map(SourceLocation::column).orElse(0)));
        return sorted;
    }

    public boolean hasProblems() {
        return !problems.isEmpty();
    }

    public void addAll(List<Problem> found) {
        found.forEach(p -> {
            problems.add(p);
            reportedPaths.add(p.path());
        });
    }

    public void report(String path, SourceLocation where, String message) {
        problems.add(new Problem(Optional.of(where), path, message));
        reportedPaths.add(path);
    }

    /** Remembers where a field was written, so that constructor problems about it can be located. */
    public void remember(String path, SourceLocation where) {
        locations.putIfAbsent(path, where);
    }

    /** Where a path was written, or its nearest written parent; the file's start as the last resort. */
    public SourceLocation locate(String path) {
        String current = path;
        while (true) {
            SourceLocation where = locations.get(current);
            if (where != null) {
                return where;
            }
            if (current.isEmpty()) {
                return new SourceLocation(fileName, 1, 1);
            }
            current = FieldPath.parent(current);
        }
    }

    /**
     * Runs an API record constructor and keeps its problems, placed under {@code path} and located. Problems about a
     * path that already has a reader problem are dropped: they are echoes of a placeholder the reader passed in.
     */
    public <T> Optional<T> construct(String path, Supplier<T> constructor) {
        try {
            return Optional.of(constructor.get());
        } catch (GantryException e) {
            if (e.problems().isEmpty()) {
                throw e;
            }
            for (Problem problem : e.problems()) {
                Problem placed = path.isEmpty() ? problem : problem.under(path);
                if (!covered(placed.path())) {
                    problems.add(placed.at(locate(placed.path())));
                }
            }
            reportedPaths.add(path);
            return Optional.empty();
        }
    }

    private boolean covered(String path) {
        for (String reported : reportedPaths) {
            // An echo of the reported problem: the same field, one inside it, or the field holding it.
            if (path.equals(reported) || path.startsWith(reported + ".") || path.startsWith(reported + "[")
                    || !path.isEmpty() && (reported.startsWith(path + ".") || reported.startsWith(path + "["))) {
                return true;
            }
        }
        return false;
    }

    // ---- mappings ----

    /** The node as a mapping whose keys must be among {@code fields}; unknown keys are problems. */
    public Optional<YamlNode.Mapping> mapping(YamlNode node, String path, SourceLocation where, List<String> fields) {
        return mapping(node, path, where, fields, Map.of());
    }

    /**
     * As {@link #mapping(YamlNode, String, SourceLocation, List)}, where {@code elsewhere} tells where known fields
     * of other levels belong ({@code gpus} → "under resources"), for a clearer message than a near miss.
     */
    public Optional<YamlNode.Mapping> mapping(YamlNode node, String path, SourceLocation where, List<String> fields,
            Map<String, String> elsewhere) {
        if (!(node instanceof YamlNode.Mapping map)) {
            report(path, where, "must be a mapping (fields: " + String.join(", ", fields) + "), got " + node.describe());
            return Optional.empty();
        }
        for (YamlNode.Entry entry : map.entries()) {
            String child = FieldPath.join(path, entry.key());
            remember(child, entry.keyLocation());
            if (!fields.contains(entry.key())) {
                if (elsewhere.containsKey(entry.key())) {
                    report(child, entry.keyLocation(), "'" + entry.key() + "' is not a field here; it belongs "
                            + elsewhere.get(entry.key()));
                    continue;
                }
                String hint = NearMiss.closest(entry.key(), fields).map(c -> "did you mean '" + c + "'?")
                        .orElse("allowed fields are " + String.join(", ", fields));
                report(child, entry.keyLocation(), "unknown field '" + entry.key() + "'; " + hint);
            }
        }
        return Optional.of(map);
    }

    /** The optional field's value, or a problem (and empty) when it is written without a value. */
    public Optional<YamlNode> field(YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode.Entry> entry = map.entry(key);
        if (entry.isEmpty()) {
            return Optional.empty();
        }
        YamlNode value = entry.get().value();
        if (value instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.NULL) {
            report(FieldPath.join(path, key), entry.get().keyLocation(), "has no value; give a value or remove the line");
            return Optional.empty();
        }
        return Optional.of(value);
    }

    /** The required field's value; a problem at the parent when it is missing, at the key when it has no value. */
    public Optional<YamlNode> required(YamlNode.Mapping map, String path, String key, String help) {
        Optional<YamlNode.Entry> entry = map.entry(key);
        if (entry.isEmpty()) {
            report(FieldPath.join(path, key), locate(path), "is required: " + help);
            return Optional.empty();
        }
        if (entry.get().value() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.NULL) {
            report(FieldPath.join(path, key), entry.get().keyLocation(), "is required but has no value: " + help);
            return Optional.empty();
        }
        return Optional.of(entry.get().value());
    }

    public SourceLocation keyLocation(YamlNode.Mapping map, String key) {
        return map.entry(key).map(YamlNode.Entry::keyLocation).orElse(map.location());
    }

    // ---- scalars ----

    public Optional<String> string(YamlNode.Mapping map, String path, String key) {
        return field(map, path, key).flatMap(node -> string(node, FieldPath.join(path, key), keyLocation(map, key)));
    }

    public Optional<String> string(YamlNode node, String path, SourceLocation where) {
        if (node instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            return Optional.of(s.text());
        }
        String quote = node instanceof YamlNode.Scalar s && s.type() != YamlNode.ScalarType.NULL
                ? " (quote it to use it as text: '" + s.text() + "')" : "";
        report(path, where, "must be a string, got " + node.describe() + quote);
        return Optional.empty();
    }

    /**
     * A scalar's text as written, for values that end up as strings anyway (env values, labels, command arguments):
     * {@code 3} and {@code true} are taken as "3" and "true". Mappings, lists and empty values are problems.
     */
    public Optional<String> text(YamlNode node, String path, SourceLocation where, String what) {
        if (node instanceof YamlNode.Scalar s && s.type() != YamlNode.ScalarType.NULL) {
            return Optional.of(s.text());
        }
        report(path, where, "must be " + what + ", got " + node.describe());
        return Optional.empty();
    }

    public OptionalInt integer(YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return OptionalInt.empty();
        }
        String at = FieldPath.join(path, key);
        SourceLocation where = keyLocation(map, key);
        if (node.get() instanceof YamlNode.Scalar s && s.isNumber() && s.number().isPresent()) {
            BigDecimal value = s.number().get();
            if (value.stripTrailingZeros().scale() > 0) {
                report(at, where, "must be a whole number, got " + s.text());
                return OptionalInt.empty();
            }
            try {
                return OptionalInt.of(value.intValueExact());
            } catch (ArithmeticException e) {
                report(at, where, "is far too large, got " + s.text());
                return OptionalInt.empty();
            }
        }
        report(at, where, "must be a whole number, got " + node.get().describe());
        return OptionalInt.empty();
    }

    public OptionalDouble number(YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return OptionalDouble.empty();
        }
        if (node.get() instanceof YamlNode.Scalar s && s.isNumber() && s.number().isPresent()) {
            return OptionalDouble.of(s.number().get().doubleValue());
        }
        report(FieldPath.join(path, key), keyLocation(map, key), "must be a number, got " + node.get().describe());
        return OptionalDouble.empty();
    }

    /** An enum constant written in lower case; problems list the allowed values and suggest a near miss. */
    public <E extends Enum<E>> Optional<E> choice(YamlNode.Mapping map, String path, String key, Class<E> type) {
        List<String> allowed = Arrays.stream(type.getEnumConstants()).map(c -> c.name().toLowerCase(Locale.ROOT))
                .collect(Collectors.toList());
        return word(map, path, key, allowed).map(w -> Enum.valueOf(type, w.toUpperCase(Locale.ROOT)));
    }

    /** One of a fixed list of words, compared exactly. */
    public Optional<String> word(YamlNode.Mapping map, String path, String key, List<String> allowed) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        String given = node.get() instanceof YamlNode.Scalar s ? s.text() : null;
        if (given != null && allowed.contains(given)
                && ((YamlNode.Scalar) node.get()).type() == YamlNode.ScalarType.STRING) {
            return Optional.of(given);
        }
        String hint = given == null ? "" : NearMiss.suggestion(given, allowed);
        report(FieldPath.join(path, key), keyLocation(map, key),
                "must be one of " + String.join(", ", allowed) + ", got " + node.get().describe() + hint);
        return Optional.empty();
    }

    public Optional<Duration> duration(YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        String at = FieldPath.join(path, key);
        SourceLocation where = keyLocation(map, key);
        if (node.get() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            Optional<Duration> parsed = parseDuration(s.text());
            if (parsed.isPresent()) {
                return parsed;
            }
        }
        String hint = node.get() instanceof YamlNode.Scalar s && s.isNumber() ? " (add a unit, e.g. " + s.text() + "m)" : "";
        report(at, where, "must be " + DURATION_HELP + ", got " + node.get().describe() + hint);
        return Optional.empty();
    }

    /** Parses {@code 30s}, {@code 30m}, {@code 2h}, {@code 1h30m}, {@code 1d}. */
    public static Optional<Duration> parseDuration(String text) {
        Matcher m = DURATION.matcher(text.trim());
        if (text.isBlank() || !m.matches()) {
            return Optional.empty();
        }
        long seconds = 0;
        long[] unit = {86_400, 3_600, 60, 1};
        for (int g = 1; g <= 4; g++) {
            if (m.group(g) != null) {
                seconds += Long.parseLong(m.group(g)) * unit[g - 1];
            }
        }
        return Optional.of(Duration.ofSeconds(seconds));
    }

    /** A size in GiB: a plain number, or {@code 512Mi}, {@code 80Gi}, {@code 1Ti} (a trailing B is allowed). */
    public OptionalDouble sizeGib(YamlNode.Mapping map, String path, String key) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return OptionalDouble.empty();
        }
        String at = FieldPath.join(path, key);
        SourceLocation where = keyLocation(map, key);
        if (node.get() instanceof YamlNode.Scalar s && s.isNumber() && s.number().isPresent()) {
            return OptionalDouble.of(s.number().get().doubleValue());
        }
        if (node.get() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING) {
            OptionalDouble parsed = parseSizeGib(s.text());
            if (parsed.isPresent()) {
                return parsed;
            }
            Matcher decimal = DECIMAL_SIZE.matcher(s.text().trim());
            if (decimal.matches()) {
                report(at, where, "must be " + SIZE_HELP + ", got '" + s.text() + "'; did you mean '"
                        + decimal.group(1) + decimal.group(2).toUpperCase(Locale.ROOT) + "i'?");
                return OptionalDouble.empty();
            }
        }
        report(at, where, "must be " + SIZE_HELP + ", got " + node.get().describe());
        return OptionalDouble.empty();
    }

    public static OptionalDouble parseSizeGib(String text) {
        Matcher m = SIZE.matcher(text.trim());
        if (!m.matches()) {
            return OptionalDouble.empty();
        }
        double value = Double.parseDouble(m.group(1));
        String unit = m.group(2) == null ? "Gi" : m.group(2);
        return OptionalDouble.of(switch (unit) {
            case "Mi" -> value / 1024;
            case "Ti" -> value * 1024;
            default -> value;
        });
    }

    // ---- collections ----

    /**
     * A list of scalars, each taken as its text ({@link #text}) or, when {@code stringsOnly}, each a string. Element
     * locations are remembered as {@code path[i]}.
     */
    public Optional<List<String>> list(YamlNode.Mapping map, String path, String key, String what, boolean stringsOnly) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        String at = FieldPath.join(path, key);
        if (!(node.get() instanceof YamlNode.Sequence seq)) {
            String hint = node.get() instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.STRING
                    ? "; write it as a list: [" + String.join(", ", s.text().trim().split("\\s+")) + "]" : "";
            report(at, keyLocation(map, key), "must be a list of " + what + ", got " + node.get().describe() + hint);
            return Optional.empty();
        }
        List<String> values = new ArrayList<>();
        boolean ok = true;
        for (int i = 0; i < seq.items().size(); i++) {
            YamlNode item = seq.items().get(i);
            String itemPath = FieldPath.index(at, i);
            remember(itemPath, item.location());
            Optional<String> value = stringsOnly ? string(item, itemPath, item.location())
                    : text(item, itemPath, item.location(), "a string or number");
            value.ifPresent(values::add);
            ok &= value.isPresent();
        }
        return ok ? Optional.of(values) : Optional.empty();
    }

    /** A mapping of names to scalars (taken as their text). Key locations are remembered as {@code path.KEY}. */
    public Optional<Map<String, String>> textMap(YamlNode.Mapping map, String path, String key, String what) {
        Optional<YamlNode> node = field(map, path, key);
        if (node.isEmpty()) {
            return Optional.empty();
        }
        String at = FieldPath.join(path, key);
        if (!(node.get() instanceof YamlNode.Mapping inner)) {
            report(at, keyLocation(map, key), "must be a mapping of names to " + what + ", got "
                    + node.get().describe());
            return Optional.empty();
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (YamlNode.Entry entry : inner.entries()) {
            String entryPath = FieldPath.join(at, entry.key());
            remember(entryPath, entry.keyLocation());
            text(entry.value(), entryPath, entry.keyLocation(), what).ifPresent(v -> values.put(entry.key(), v));
        }
        return Optional.of(values);
    }
}
