package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.dataformat.yaml.YAMLMapper;
import java.io.IOException;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.junit.jupiter.api.Test;

class YamlTextTest {
    private static final YAMLMapper YAML = new YAMLMapper();

    @ParameterizedTest
    @ValueSource(strings = {"", "plain", "it's", "\"", "\\", "a\nb", "\r\n", "\t", "\u0000", "\u0007", "\u007F",
            "\u0085", "\u2028", "\u2029", "\uFEFF", "\uFFFE", "🚀", "日本", "null", "~", "true", "0x1F", "1e3",
            "- x", "? y", ": z", "#c", "&a", "*a", "!t", "%d", "@x", "`x`", "${X}", "$(x)"})
    void roundTripsThroughAYamlParser(String value) throws IOException {
        String doc = "value: " + YamlText.quoted(value) + "\n";

        assertEquals(value, YAML.readTree(doc).get("value").asText(), doc);
    }

    @Test
    void escapesLineBreakCharactersSoTheScalarStaysOnOneLine() {
        assertEquals("\"a\\nb\\u2028c\\u0085d\"", YamlText.quoted("a\nb\u2028c\u0085d"));
    }

    @Test
    void refusesUnpairedSurrogates() {
        assertThrows(IllegalArgumentException.class, () -> YamlText.quoted("x\uDC00"));
    }
}
