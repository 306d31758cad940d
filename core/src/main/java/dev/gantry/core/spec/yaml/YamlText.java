package dev.gantry.core.spec.yaml;

import com.fasterxml.jackson.core.JsonLocation;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLParser;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.Mark;
import com.fasterxml.jackson.dataformat.yaml.snakeyaml.error.MarkedYAMLException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import java.io.IOException;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Reads one YAML document into a located {@link YamlNode} tree with Jackson's streaming YAML parser. Syntax errors,
 * an empty file, a second document, duplicate keys and aliases come back as located problems, never as exceptions;
 * problems about a field carry its full path from the document's root.
 */
public final class YamlText {
    private static final YAMLFactory FACTORY = new YAMLFactory();

    /**
     * The root value (absent when nothing usable was read) and the problems found while reading it. {@code empty} is
     * true for a file with no document (nothing, comments only, or a lone {@code null}); callers decide whether that
     * is an error.
     */
    public record Parsed(Optional<YamlNode> root, List<Problem> problems, boolean empty) {
        public Parsed {
            problems = List.copyOf(problems);
        }
    }

    private final String fileName;
    private final List<Problem> problems = new ArrayList<>();

    private YamlText(String fileName) {
        this.fileName = fileName;
    }

    /**
     * Parses {@code text}. An empty document gives no root and no problem; a syntax error gives no root and exactly
     * one problem at the place the YAML parser stopped.
     */
    public static Parsed parse(String fileName, String text) {
        return new YamlText(fileName).parse(text);
    }

    private Parsed parse(String text) {
        try (JsonParser parser = FACTORY.createParser(text)) {
            JsonToken first = parser.nextToken();
            if (first == null || first == JsonToken.VALUE_NULL) {
                return new Parsed(Optional.empty(), problems, true);
            }
            YamlNode root = readValue(parser, "");
            JsonToken next = parser.nextToken();
            if (next != null && next != JsonToken.VALUE_NULL) {
                problems.add(new Problem(Optional.of(at(parser.currentTokenLocation())), "",
                        "found a second YAML document (after ---); a file holds exactly one"));
            }
            return new Parsed(Optional.of(root), problems, false);
        } catch (JsonProcessingException e) {
            return new Parsed(Optional.empty(), List.of(syntaxProblem(e)), false);
        } catch (IOException e) {
            // Reading from a String cannot fail with I/O; anything here is a parser problem.
            return new Parsed(Optional.empty(), List.of(new Problem(Optional.of(new SourceLocation(fileName, 1, 1)),
                    "", "YAML syntax error: " + e.getMessage())), false);
        }
    }

    private YamlNode readValue(JsonParser parser, String path) throws IOException {
        SourceLocation where = at(parser.currentTokenLocation());
        JsonToken token = parser.currentToken();
        switch (token) {
            case START_OBJECT: {
                List<YamlNode.Entry> entries = new ArrayList<>();
                Map<String, SourceLocation> seen = new HashMap<>();
                while (parser.nextToken() == JsonToken.FIELD_NAME) {
                    String key = parser.currentName();
                    SourceLocation keyAt = at(parser.currentTokenLocation());
                    parser.nextToken();
                    YamlNode value = readValue(parser, FieldPath.join(path, key));
                    SourceLocation first = seen.putIfAbsent(key, keyAt);
                    if (first != null) {
                        problems.add(new Problem(Optional.of(keyAt), FieldPath.join(path, key), "is set twice (first at line "
                                + first.line() + "); each key may appear once"));
                    } else {
                        entries.add(new YamlNode.Entry(key, keyAt, value));
                    }
                }
                return new YamlNode.Mapping(where, entries);
            }
            case START_ARRAY: {
                List<YamlNode> items = new ArrayList<>();
                while (parser.nextToken() != JsonToken.END_ARRAY) {
                    items.add(readValue(parser, FieldPath.index(path, items.size())));
                }
                return new YamlNode.Sequence(where, items);
            }
            default:
                return readScalar(parser, token, where, path);
        }
    }

    private YamlNode readScalar(JsonParser parser, JsonToken token, SourceLocation where, String path)
            throws IOException {
        String text = parser.getText() == null ? "" : parser.getText();
        if (parser instanceof YAMLParser yaml && yaml.isCurrentAlias()) {
            problems.add(new Problem(Optional.of(where), path, "YAML aliases (*" + text
                    + ") are not supported; write the value out"));
            // Kept as its name so the rest of the document is still checked; the problem above fails the read.
            return new YamlNode.Scalar(where, text, YamlNode.ScalarType.STRING, Optional.empty());
        }
        return switch (token) {
            case VALUE_NUMBER_INT -> new YamlNode.Scalar(where, text, YamlNode.ScalarType.INTEGER,
                    Optional.of(new BigDecimal(parser.getBigIntegerValue())));
            case VALUE_NUMBER_FLOAT -> new YamlNode.Scalar(where, text, YamlNode.ScalarType.DECIMAL, decimal(parser));
            case VALUE_TRUE, VALUE_FALSE -> new YamlNode.Scalar(where, text, YamlNode.ScalarType.BOOLEAN,
                    Optional.empty());
            case VALUE_NULL -> new YamlNode.Scalar(where, text, YamlNode.ScalarType.NULL, Optional.empty());
            default -> new YamlNode.Scalar(where, text, YamlNode.ScalarType.STRING, Optional.empty());
        };
    }

    /** The value of a YAML float; empty for .inf and .nan, which no Gantry field accepts. */
    private static Optional<BigDecimal> decimal(JsonParser parser) {
        try {
            double value = parser.getDoubleValue();
            return Double.isFinite(value) ? Optional.of(parser.getDecimalValue()) : Optional.empty();
        } catch (IOException | NumberFormatException e) {
            return Optional.empty();
        }
    }

    @SuppressWarnings("deprecation") // Jackson's wrapper of the SnakeYAML error is the only way to its problem text
    private Problem syntaxProblem(JsonProcessingException e) {
        if (e instanceof MarkedYAMLException marked && marked.getProblemMark() != null) {
            Mark mark = marked.getProblemMark();
            String message = "YAML syntax error: " + oneLine(marked.getProblem());
            Mark context = marked.getContextMark();
            if (marked.getContext() != null && context != null) {
                message += " (" + oneLine(marked.getContext()) + " at line " + (context.getLine() + 1) + ", column "
                        + (context.getColumn() + 1) + ")";
            }
            return new Problem(Optional.of(new SourceLocation(fileName, mark.getLine() + 1, mark.getColumn() + 1)),
                    "", message);
        }
        JsonLocation where = e.getLocation();
        SourceLocation location = where == null ? new SourceLocation(fileName, 1, 1) : at(where);
        return new Problem(Optional.of(location), "", "YAML syntax error: " + oneLine(e.getOriginalMessage()));
    }

    private static String oneLine(String text) {
        if (text == null) {
            return "unreadable YAML";
        }
        return text.strip().replaceAll("\\s*\\n\\s*", " ");
    }

    private SourceLocation at(JsonLocation where) {
        return new SourceLocation(fileName, Math.max(1, where.getLineNr()), Math.max(1, where.getColumnNr()));
    }
}
