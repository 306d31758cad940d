package dev.gantry.backend.manual.internal.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A small strict JSON reader for the few JSON outputs the probes read ({@code rocm-smi --json}, {@code podman info},
 * the boot marker, Azure Scheduled Events): objects become {@link LinkedHashMap}s, arrays {@link List}s, numbers
 * {@link Double}s. The module depends on the API only, so it carries its own; malformed text fails with the offset
 * and what was expected.
 */
public final class JsonReader {
    /** Deeper nesting than any tool prints; a limit keeps hostile input from exhausting the stack. */
    static final int MAX_DEPTH = 64;

    private final String text;
    private int at;
    private int depth;

    private JsonReader(String text) {
        this.text = text;
    }

    /** Thrown for malformed JSON; parsers turn it into a {@link ProbeProblem}. */
    public static final class MalformedJson extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedJson(String message) {
            super(message);
        }
    }

    public static Object parse(String text) throws MalformedJson {
        JsonReader reader = new JsonReader(text);
        reader.skipSpace();
        Object value = reader.value();
        reader.skipSpace();
        if (reader.at < text.length()) {
            throw reader.error("end of input");
        }
        return value;
    }

    private Object value() throws MalformedJson {
        if (at >= text.length()) {
            throw error("a value");
        }
        char c = text.charAt(at);
        switch (c) {
            case '{':
                return object();
            case '[':
                return array();
            case '"':
                return string();
            case 't':
                return literal("true", Boolean.TRUE);
            case 'f':
                return literal("false", Boolean.FALSE);
            case 'n':
                return literal("null", null);
            default:
                if (c == '-' || (c >= '0' && c <= '9')) {
                    return number();
                }
                throw error("a value");
        }
    }

    private void enter() throws MalformedJson {
        if (++depth > MAX_DEPTH) {
            throw new MalformedJson("malformed JSON at offset " + at + ": nested deeper than " + MAX_DEPTH);
        }
    }

    private Map<String, Object> object() throws MalformedJson {
        enter();
        Map<String, Object> result = new LinkedHashMap<>();
        at++;
        skipSpace();
        if (peek('}')) {
            at++;
            depth--;
            return result;
        }
        while (true) {
            skipSpace();
            if (!peek('"')) {
                throw error("a member name in quotes");
            }
            String key = string();
            skipSpace();
            expect(':');
            skipSpace();
            result.put(key, value());
            skipSpace();
            if (peek(',')) {
                at++;
            } else if (peek('}')) {
                at++;
                depth--;
                return result;
            } else {
                throw error("',' or '}'");
            }
        }
    }

    private List<Object> array() throws MalformedJson {
        enter();
        List<Object> result = new ArrayList<>();
        at++;
        skipSpace();
        if (peek(']')) {
            at++;
            depth--;
            return result;
        }
        while (true) {
            skipSpace();
            result.add(value());
            skipSpace();
            if (peek(',')) {
                at++;
            } else if (peek(']')) {
                at++;
                depth--;
                return result;
            } else {
                throw error("',' or ']'");
            }
        }
    }

    private String string() throws MalformedJson {
        at++;
        StringBuilder out = new StringBuilder();
        while (at < text.length()) {
            char c = text.charAt(at++);
            if (c == '"') {
                return out.toString();
            }
            if (c != '\\') {
                out.append(c);
                continue;
            }
            if (at >= text.length()) {
                break;
            }
            char e = text.charAt(at++);
            switch (e) {
                case '"', '\\', '/' -> out.append(e);
                case 'b' -> out.append('\b');
                case 'f' -> out.append('\f');
                case 'n' -> out.append('\n');
                case 'r' -> out.append('\r');
                case 't' -> out.append('\t');
                case 'u' -> {
                    if (at + 4 > text.length()) {
                        throw error("four hex digits after \\u");
                    }
                    try {
                        out.append((char) Integer.parseInt(text.substring(at, at + 4), 16));
                    } catch (NumberFormatException bad) {
                        throw error("four hex digits after \\u");
                    }
                    at += 4;
                }
                default -> throw error("a valid escape");
            }
        }
        throw error("a closing quote");
    }

    private Double number() throws MalformedJson {
        int start = at;
        while (at < text.length() && "+-0123456789.eE".indexOf(text.charAt(at)) >= 0) {
            at++;
        }
        try {
            return Double.valueOf(text.substring(start, at));
        } catch (NumberFormatException bad) {
            at = start;
            throw error("a number");
        }
    }

    private Object literal(String word, Object value) throws MalformedJson {
        if (!text.startsWith(word, at)) {
            throw error("'" + word + "'");
        }
        at += word.length();
        return value;
    }

    private void expect(char c) throws MalformedJson {
        if (!peek(c)) {
            throw error("'" + c + "'");
        }
        at++;
    }

    private boolean peek(char c) {
        return at < text.length() && text.charAt(at) == c;
    }

    private void skipSpace() {
        while (at < text.length() && Character.isWhitespace(text.charAt(at))) {
            at++;
        }
    }

    private MalformedJson error(String expected) {
        String found = at < text.length() ? "'" + text.charAt(at) + "'" : "end of input";
        return new MalformedJson("malformed JSON at offset " + at + ": expected " + expected + ", found " + found);
    }
}
