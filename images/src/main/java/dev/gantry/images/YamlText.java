package dev.gantry.images;

import java.util.Locale;

/**
 * Writes text as YAML double-quoted scalars, the one YAML style in which any string can be written on one line and
 * read back unchanged: quotes, backslashes, control characters and the characters YAML treats as line breaks are
 * escaped, everything else printable (Unicode included) is written as is.
 */
final class YamlText {
    private YamlText() {
    }

    static String quoted(String text) {
        StringBuilder out = new StringBuilder(text.length() + 2).append('"');
        text.codePoints().forEach(cp -> {
            switch (cp) {
                case '"' -> out.append("\\\"");
                case '\\' -> out.append("\\\\");
                case '\n' -> out.append("\\n");
                case '\r' -> out.append("\\r");
                case '\t' -> out.append("\\t");
                default -> {
                    if (printable(cp)) {
                        out.appendCodePoint(cp);
                    } else if (Character.isSurrogate((char) cp) && cp <= 0xFFFF) {
                        throw new IllegalArgumentException("unpaired UTF-16 surrogate in " + text.length()
                                + "-character text; it cannot be written as YAML");
                    } else if (cp <= 0xFFFF) {
                        out.append(String.format(Locale.ROOT, "\\u%04X", cp));
                    } else {
                        out.append(String.format(Locale.ROOT, "\\U%08X", cp));
                    }
                }
            }
        });
        return out.append('"').toString();
    }

    /**
     * YAML's printable set, minus NEL, LS, PS (YAML 1.1 parsers such as cloud-init's read them as line breaks) and
     * the byte-order mark.
     */
    private static boolean printable(int cp) {
        return (cp >= 0x20 && cp <= 0x7E)
                || (cp >= 0xA0 && cp <= 0xD7FF && cp != 0x2028 && cp != 0x2029)
                || (cp >= 0xE000 && cp <= 0xFFFD && cp != 0xFEFF)
                || (cp >= 0x10000 && cp <= 0x10FFFF);
    }
}
