package dev.gantry.hosts.json.internal;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.core.SerializableString;
import com.fasterxml.jackson.core.StreamReadConstraints;
import com.fasterxml.jackson.core.StreamWriteFeature;
import com.fasterxml.jackson.core.exc.StreamConstraintsException;
import com.fasterxml.jackson.core.io.CharacterEscapes;
import com.fasterxml.jackson.core.io.SerializedString;
import com.fasterxml.jackson.core.json.JsonWriteFeature;
import com.fasterxml.jackson.core.util.DefaultIndenter;
import com.fasterxml.jackson.core.util.DefaultPrettyPrinter;
import com.fasterxml.jackson.core.util.Separators;
import com.fasterxml.jackson.databind.DeserializationFeature;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.ObjectWriter;
import com.fasterxml.jackson.databind.json.JsonMapper;
import java.io.IOException;
import java.io.UncheckedIOException;

/**
 * The hosts module's one use of the JSON library: reading what hosts print ({@code rocm-smi --json},
 * {@code podman info}, the boot marker, Azure Scheduled Events, {@code job.json}) and writing the documents Gantry
 * keeps or prints ({@code job.json}, the doctor report). Reading is strict (one value, nothing after it, at most
 * {@value #MAX_DEPTH} levels deep); writing is pretty-printed with two-space indents and {@code "name": value}
 * members, the layout the files have always had, so scripts that read them keep working.
 */
public final class Json {
    /** Deeper nesting than any tool prints; a limit keeps hostile input from exhausting the stack. */
    public static final int MAX_DEPTH = 64;

    private static final ObjectMapper MAPPER = JsonMapper.builder(JsonFactory.builder()
                    .streamReadConstraints(StreamReadConstraints.builder().maxNestingDepth(MAX_DEPTH).build())
                    .disable(JsonWriteFeature.WRITE_HEX_UPPER_CASE)
                    .build())
            .enable(DeserializationFeature.FAIL_ON_TRAILING_TOKENS)
            .enable(StreamWriteFeature.WRITE_BIGDECIMAL_AS_PLAIN)
            .build();
    private static final ObjectWriter ONE_PER_LINE = writer(new DefaultIndenter("  ", "\n"),
            Separators.Spacing.NONE);
    private static final ObjectWriter INLINE_ARRAYS = writer(new DefaultPrettyPrinter.NopIndenter(),
            Separators.Spacing.AFTER);

    /** How arrays are laid out; objects always have one member per line. */
    public enum Layout {
        /** Each element on its own line, like the members of an object (the doctor report). */
        ONE_PER_LINE,
        /** All elements on the object member's line, {@code ["a", "b"]} (short lists: job.json). */
        INLINE_ARRAYS
    }

    /** Text that is not one JSON value: where, and what was wrong. */
    public static final class MalformedJson extends Exception {
        private static final long serialVersionUID = 1L;

        MalformedJson(String message, Throwable cause) {
            super(message, cause);
        }
    }

    private Json() {
    }

    /** Parses exactly one JSON value; anything else (nothing, a second value, bad syntax) is malformed. */
    public static JsonNode parse(String text) throws MalformedJson {
        JsonNode root;
        try (JsonParser parser = MAPPER.createParser(text)) {
            try {
                root = MAPPER.readTree(parser);
            } catch (StreamConstraintsException e) {
                // The limit's exception has no location; the parser stands where it stopped.
                throw new MalformedJson("malformed JSON at offset " + (parser.currentLocation().getCharOffset() - 1)
                        + ": nested deeper than " + MAX_DEPTH, e);
            } catch (JsonProcessingException e) {
                throw new MalformedJson("malformed JSON at offset " + offset(e) + ": " + reason(e), e);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("reading a string cannot fail", e);
        }
        if (root == null || root.isMissingNode()) {
            throw new MalformedJson("malformed JSON at offset " + text.length() + ": expected a value, found end of "
                    + "input", null);
        }
        return root;
    }

    /**
     * Writes maps, lists, strings, numbers, booleans and nulls (or a tree) as a document ending in a newline. Strings
     * are escaped per RFC 8259; control characters and the JavaScript line separators as {@code \\uXXXX}, so tool
     * output with quotes or escape sequences cannot break the document.
     */
    public static String write(Object value, Layout layout) {
        try {
            return (layout == Layout.ONE_PER_LINE ? ONE_PER_LINE : INLINE_ARRAYS).writeValueAsString(value) + "\n";
        } catch (JsonProcessingException e) {
            throw new IllegalArgumentException("cannot write " + value.getClass().getName() + " as JSON: "
                    + e.getOriginalMessage(), e);
        }
    }

    /** One string as a JSON string literal, escaped as {@link #write} escapes it. */
    public static String quote(String text) {
        try {
            return ONE_PER_LINE.writeValueAsString(text);
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a string always has a JSON form", e);
        }
    }

    private static ObjectWriter writer(DefaultPrettyPrinter.Indenter arrays, Separators.Spacing afterArrayComma) {
        Separators separators = Separators.createDefaultInstance()
                .withObjectFieldValueSpacing(Separators.Spacing.AFTER)
                .withArrayValueSpacing(afterArrayComma)
                .withObjectEmptySeparator("")
                .withArrayEmptySeparator("");
        DefaultPrettyPrinter printer = new DefaultPrettyPrinter(separators);
        printer.indentObjectsWith(new DefaultIndenter("  ", "\n"));
        printer.indentArraysWith(arrays);
        return MAPPER.writer(printer).with(new Escapes());
    }

    private static long offset(JsonProcessingException e) {
        return e.getLocation() == null ? 0 : Math.max(0, e.getLocation().getCharOffset());
    }

    /** The parser's own words, without the location it appends (the offset says where). */
    private static String reason(JsonProcessingException e) {
        String message = String.valueOf(e.getOriginalMessage());
        int marker = message.indexOf(" (start marker at");
        return (marker < 0 ? message : message.substring(0, marker)).strip();
    }

    /** Short escapes for quote, backslash, newline, CR and tab; {@code \\uXXXX} for every other control character. */
    private static final class Escapes extends CharacterEscapes {
        private static final long serialVersionUID = 1L;
        private static final SerializedString LINE_SEPARATOR = new SerializedString("\\u2028");
        private static final SerializedString PARAGRAPH_SEPARATOR = new SerializedString("\\u2029");
        private final int[] ascii = standardAsciiEscapesForJSON();

        Escapes() {
            ascii['\b'] = ESCAPE_STANDARD;
            ascii['\f'] = ESCAPE_STANDARD;
        }

        @Override
        public int[] getEscapeCodesForAscii() {
            return ascii;
        }

        @Override
        public SerializableString getEscapeSequence(int ch) {
            return ch == 0x2028 ? LINE_SEPARATOR : ch == 0x2029 ? PARAGRAPH_SEPARATOR : null;
        }
    }
}
