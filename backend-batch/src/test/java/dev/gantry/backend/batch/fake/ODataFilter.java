package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * Batch's {@code $filter} grammar: comparisons {@code property op literal} (op one of eq, ne, ge, gt, le, lt),
 * {@code startswith(property, 'text')}, joined by {@code and} / {@code or}, grouped by parentheses, negated by
 * {@code not}. Literals are quoted strings (a quote doubled inside), integers, and times (quoted, as
 * {@code datetime'...'} or bare ISO-8601). Each property and operator must be in the list's {@link FilterTable};
 * anything else is {@code 400 InvalidQueryParameterValue} naming what is wrong and what is allowed.
 */
final class ODataFilter {
    private final String text;
    private final Map<String, FilterTable.Property> table;
    private int at;

    private ODataFilter(String text, Map<String, FilterTable.Property> table) {
        this.text = text;
        this.table = table;
    }

    static Predicate<JsonNode> parse(String filter, Map<String, FilterTable.Property> table) {
        if (filter == null || filter.isBlank()) {
            return item -> true;
        }
        ODataFilter parser = new ODataFilter(filter, table);
        Predicate<JsonNode> predicate = parser.disjunction();
        parser.spaces();
        if (parser.at != filter.length()) {
            throw parser.error("unexpected text at character " + parser.at);
        }
        return predicate;
    }

    private Predicate<JsonNode> disjunction() {
        List<Predicate<JsonNode>> terms = new ArrayList<>(List.of(conjunction()));
        while (keyword("or")) {
            terms.add(conjunction());
        }
        return item -> terms.stream().anyMatch(term -> term.test(item));
    }

    private Predicate<JsonNode> conjunction() {
        List<Predicate<JsonNode>> terms = new ArrayList<>(List.of(unary()));
        while (keyword("and")) {
            terms.add(unary());
        }
        return item -> terms.stream().allMatch(term -> term.test(item));
    }

    private Predicate<JsonNode> unary() {
        if (keyword("not")) {
            return unary().negate();
        }
        if (symbol('(')) {
            Predicate<JsonNode> inner = disjunction();
            expect(')');
            return inner;
        }
        if (keyword("startswith")) {
            expect('(');
            String property = property("startswith");
            expect(',');
            String prefix = quoted();
            expect(')');
            return item -> {
                JsonNode value = value(item, property);
                return value != null && value.asText().startsWith(prefix);
            };
        }
        int start = at;
        String name = word();
        String operator = word();
        if (!FilterTable.ORDER.contains(operator)) { // whether the property takes it is checked below
            at = start;
            throw error("expected 'property op value' (op one of eq, ne, ge, gt, le, lt) at character " + start);
        }
        at = start;
        String property = property(operator);
        word();
        FilterTable.Property declared = table.get(property);
        Comparable<Object> literal = literal(declared.kind());
        return item -> compare(value(item, name), declared.kind(), operator, literal);
    }

    private String property(String operator) {
        spaces();
        int start = at;
        String name = word();
        FilterTable.Property declared = table.get(name);
        if (declared == null) {
            at = start;
            throw error("'" + name + "' cannot be filtered on in this list; it takes " + table.keySet());
        }
        if (!declared.operators().contains(operator)) {
            throw error("'" + name + "' does not take '" + operator + "'; it takes " + declared.operators());
        }
        return name;
    }

    @SuppressWarnings("unchecked")
    private Comparable<Object> literal(FilterTable.Kind kind) {
        spaces();
        try {
            return (Comparable<Object>) (Comparable<?>) switch (kind) {
                case STRING -> quoted();
                case INT -> Long.parseLong(word());
                case DATETIME -> time();
            };
        } catch (NumberFormatException | DateTimeParseException e) {
            throw error("a value of the wrong kind (" + kind + ") at character " + at);
        }
    }

    private Instant time() {
        if (text.startsWith("datetime'", at)) {
            at += "datetime".length();
        }
        return Instant.parse(text.charAt(at) == '\'' ? quoted() : word());
    }

    private static boolean compare(JsonNode value, FilterTable.Kind kind, String operator,
            Comparable<Object> literal) {
        if (value == null || value.isNull()) {
            return operator.equals("ne");
        }
        Object actual = switch (kind) {
            case STRING -> value.asText();
            case INT -> value.asLong();
            case DATETIME -> Instant.parse(value.asText());
        };
        int order = literal.compareTo(actual);
        return switch (operator) {
            case "eq" -> order == 0;
            case "ne" -> order != 0;
            case "ge" -> order <= 0;
            case "gt" -> order < 0;
            case "le" -> order >= 0;
            default -> order > 0;
        };
    }

    private static JsonNode value(JsonNode item, String path) {
        JsonNode node = item;
        for (String part : path.split("/")) {
            node = node == null ? null : node.get(part);
        }
        return node;
    }

    private String quoted() {
        spaces();
        if (at >= text.length() || text.charAt(at) != '\'') {
            throw error("expected a quoted value at character " + at);
        }
        StringBuilder value = new StringBuilder();
        at++;
        while (true) {
            if (at >= text.length()) {
                throw error("unterminated quoted value");
            }
            char c = text.charAt(at++);
            if (c == '\'') {
                if (at < text.length() && text.charAt(at) == '\'') {
                    value.append('\'');
                    at++;
                    continue;
                }
                return value.toString();
            }
            value.append(c);
        }
    }

    private String word() {
        spaces();
        int start = at;
        while (at < text.length() && !Character.isWhitespace(text.charAt(at)) && "(),'".indexOf(text.charAt(at)) < 0) {
            at++;
        }
        return text.substring(start, at);
    }

    private boolean keyword(String word) {
        spaces();
        int end = at + word.length();
        if (text.regionMatches(at, word, 0, word.length())
                && (end == text.length() || Character.isWhitespace(text.charAt(end)) || text.charAt(end) == '(')) {
            at = end;
            return true;
        }
        return false;
    }

    private boolean symbol(char c) {
        spaces();
        if (at < text.length() && text.charAt(at) == c) {
            at++;
            return true;
        }
        return false;
    }

    private void expect(char c) {
        if (!symbol(c)) {
            throw error("expected '" + c + "' at character " + at);
        }
    }

    private void spaces() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private BatchError error(String reason) {
        return BatchError.invalidQuery("$filter", text, reason);
    }
}
