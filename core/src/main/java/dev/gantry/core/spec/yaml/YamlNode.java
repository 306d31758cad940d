package dev.gantry.core.spec.yaml;

import dev.gantry.api.SourceLocation;
import java.math.BigDecimal;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * A YAML value with the place it was read from. Jackson's tree model drops locations, and every problem Gantry
 * reports names the file, line and column, so specs and configuration are read into this small tree instead.
 */
public sealed interface YamlNode permits YamlNode.Mapping, YamlNode.Sequence, YamlNode.Scalar {

    SourceLocation location();

    /** How the value reads in a message: {@code 'eight'}, {@code 8}, {@code a list}. */
    String describe();

    /** One key of a mapping, with where the key itself was written. */
    record Entry(String key, SourceLocation keyLocation, YamlNode value) {
        public Entry {
            Objects.requireNonNull(key, "key");
            Objects.requireNonNull(keyLocation, "keyLocation");
            Objects.requireNonNull(value, "value");
        }
    }

    /** A mapping, keys in the order written. */
    record Mapping(SourceLocation location, List<Entry> entries) implements YamlNode {
        public Mapping {
            Objects.requireNonNull(location, "location");
            entries = List.copyOf(entries);
        }

        public Optional<Entry> entry(String key) {
            return entries.stream().filter(e -> e.key().equals(key)).findFirst();
        }

        @Override
        public String describe() {
            return "a mapping";
        }
    }

    /** A list. */
    record Sequence(SourceLocation location, List<YamlNode> items) implements YamlNode {
        public Sequence {
            Objects.requireNonNull(location, "location");
            items = List.copyOf(items);
        }

        @Override
        public String describe() {
            return "a list";
        }
    }

    /** What YAML resolved a plain or quoted scalar to. */
    enum ScalarType { STRING, INTEGER, DECIMAL, BOOLEAN, NULL }

    /**
     * A scalar as written ({@code text}) and, for numbers, its value. {@code number} is empty for non-numbers and for
     * {@code .inf}/{@code .nan}.
     */
    record Scalar(SourceLocation location, String text, ScalarType type, Optional<BigDecimal> number)
            implements YamlNode {
        public Scalar {
            Objects.requireNonNull(location, "location");
            Objects.requireNonNull(text, "text");
            Objects.requireNonNull(type, "type");
            Objects.requireNonNull(number, "number");
        }

        public boolean isNumber() {
            return type == ScalarType.INTEGER || type == ScalarType.DECIMAL;
        }

        @Override
        public String describe() {
            return switch (type) {
                case STRING -> "'" + text + "'";
                case NULL -> "no value";
                default -> text;
            };
        }
    }
}
