package dev.gantry.backend.manual.internal;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The little JSON the job record needs: objects of strings, string lists and nulls. The backend depends on the API
 * only, so it carries this instead of a JSON library.
 */
final class Json {
    private Json() {
    }

    static String quote(String text) {
        StringBuilder out = new StringBuilder("\"");
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            switch (c) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (c < 0x20) {
                        out.append(String.format("\\u%04x", (int) c));
                    } else {
                        out.append(c);
                    }
                }
            }
        }
        return out.append('"').toString();
    }

    static String list(List<String> values) {
        List<String> quoted = new ArrayList<>();
        values.forEach(v -> quoted.add(quote(v)));
        return "[" + String.join(", ", quoted) + "]";
    }

    /** Parses one object whose values are strings, lists of strings or null. */
    static Map<String, Object> parseObject(String text) {
        Parser p = new Parser(text);
        Map<String, Object> result = p.object();
        p.skipSpace();
        if (p.pos != text.length()) {
            throw p.error("trailing text");
        }
        return result;
    }

    private static final class Parser {
        private final String text;
        private int pos;

        Parser(String text) {
            this.text = text;
        }

        Map<String, Object> object() {
            expect('{');
            Map<String, Object> result = new LinkedHashMap<>();
            skipSpace();
            if (peek() == '}') {
                pos++;
                return result;
            }
            do {
                skipSpace();
                String key = string();
                skipSpace();
                expect(':');
                skipSpace();
                result.put(key, value());
                skipSpace();
            } while (take(','));
            expect('}');
            return result;
        }

        Object value() {
            char c = peek();
            if (c == '"') {
                return string();
            }
            if (c == '[') {
                pos++;
                List<String> items = new ArrayList<>();
                skipSpace();
                if (take(']')) {
                    return items;
                }
                do {
                    skipSpace();
                    items.add(string());
                    skipSpace();
                } while (take(','));
                expect(']');
                return items;
            }
            if (text.startsWith("null", pos)) {
                pos += 4;
                return null;
            }
            throw error("expected a string, a list or null");
        }

        String string() {
            expect('"');
            StringBuilder out = new StringBuilder();
            while (true) {
                char c = next();
                if (c == '"') {
                    return out.toString();
                }
                if (c != '\\') {
                    out.append(c);
                    continue;
                }
                char e = next();
                switch (e) {
                    case 'n' -> out.append('\n');
                    case 'r' -> out.append('\r');
                    case 't' -> out.append('\t');
                    case 'b' -> out.append('\b');
                    case 'f' -> out.append('\f');
                    case 'u' -> {
                        if (pos + 4 > text.length()) {
                            throw error("short \\u escape");
                        }
                        out.append((char) Integer.parseInt(text.substring(pos, pos + 4), 16));
                        pos += 4;
                    }
                    default -> out.append(e);
                }
            }
        }

        void skipSpace() {
            while (pos < text.length() && Character.isWhitespace(text.charAt(pos))) {
                pos++;
            }
        }

        private char peek() {
            if (pos >= text.length()) {
                throw error("unexpected end");
            }
            return text.charAt(pos);
        }

        private char next() {
            char c = peek();
            pos++;
            return c;
        }

        private boolean take(char c) {
            if (pos < text.length() && text.charAt(pos) == c) {
                pos++;
                return true;
            }
            return false;
        }

        private void expect(char c) {
            if (!take(c)) {
                throw error("expected '" + c + "'");
            }
        }

        IllegalArgumentException error(String what) {
            return new IllegalArgumentException("job.json: " + what + " at offset " + pos);
        }
    }
}
