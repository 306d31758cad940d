package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.function.Predicate;

/**
 * The part of OData {@code $filter} that the Retail Prices API documents and Gantry's clients send: comparisons
 * {@code field eq 'value'} (a quote inside a value doubled), joined by {@code and}, and parenthesised groups joined by
 * {@code or}. Values compare exactly, as the API compares them. Anything else is refused, so that a client sending a
 * filter the fake does not understand fails instead of getting every row.
 */
final class ODataFilter {
    /** Filter names whose item field is spelled differently ({@code priceType} filters the items' {@code type}). */
    private static final Map<String, String> FIELDS = Map.of("priceType", "type");

    private final String text;
    private int at;

    private ODataFilter(String text) {
        this.text = text;
    }

    /** The filter as a predicate over items; an empty filter keeps every item. */
    static Predicate<JsonNode> parse(String filter) {
        if (filter == null || filter.isBlank()) {
            return item -> true;
        }
        ODataFilter parser = new ODataFilter(filter.strip());
        Predicate<JsonNode> predicate = parser.conjunction();
        if (parser.at != parser.text.length()) {
            throw new IllegalArgumentException("unexpected text at " + parser.at + " of the filter: " + filter);
        }
        return predicate;
    }

    private Predicate<JsonNode> conjunction() {
        List<Predicate<JsonNode>> terms = new ArrayList<>();
        terms.add(term());
        while (skip(" and ")) {
            terms.add(term());
        }
        return item -> terms.stream().allMatch(term -> term.test(item));
    }

    private Predicate<JsonNode> term() {
        if (!skip("(")) {
            return comparison();
        }
        List<Predicate<JsonNode>> alternatives = new ArrayList<>();
        alternatives.add(comparison());
        while (skip(" or ")) {
            alternatives.add(comparison());
        }
        if (!skip(")")) {
            throw new IllegalArgumentException("expected ')' at " + at + " of the filter: " + text);
        }
        return item -> alternatives.stream().anyMatch(alternative -> alternative.test(item));
    }

    private Predicate<JsonNode> comparison() {
        int space = text.indexOf(" eq '", at);
        if (space < 0) {
            throw new IllegalArgumentException("expected field eq 'value' at " + at + " of the filter: " + text);
        }
        String name = text.substring(at, space);
        if (!name.matches("[A-Za-z]+")) {
            throw new IllegalArgumentException("not a field name: '" + name + "' in the filter: " + text);
        }
        at = space + " eq '".length();
        StringBuilder value = new StringBuilder();
        while (true) {
            if (at >= text.length()) {
                throw new IllegalArgumentException("unterminated value in the filter: " + text);
            }
            char c = text.charAt(at++);
            if (c == '\'') {
                if (at < text.length() && text.charAt(at) == '\'') {
                    value.append('\'');
                    at++;
                    continue;
                }
                break;
            }
            value.append(c);
        }
        String field = FIELDS.getOrDefault(name, name);
        String wanted = value.toString();
        return item -> item.path(field).asText().equals(wanted);
    }

    private boolean skip(String token) {
        if (text.startsWith(token, at)) {
            at += token.length();
            return true;
        }
        return false;
    }
}
