package dev.gantry.backend.aks.internal.kube;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class AsciiWatchStreamTest {
    private static final String EVENT = "{\"type\":\"ADDED\",\"object\":{\"args\":[\"caf\u00e9\",\"\u20ac5\",\"\ud83d\ude80 go\","
            + "\"plain\"]}}\n";

    private final List<ByteBuffer> received = new ArrayList<>();
    private final AsciiWatchStream stream = new AsciiWatchStream((chunks, body) -> received.addAll(chunks));

    @Test
    void asciiPassesUnchanged() throws Exception {
        stream.consume(List.of(utf8("{\"type\":\"MODIFIED\"}\n")), null);
        assertEquals("{\"type\":\"MODIFIED\"}\n", text());
    }

    @Test
    void everyOtherCharacterBecomesItsJsonEscapeAndReadsTheSame() throws Exception {
        stream.consume(List.of(utf8(EVENT)), null);
        String out = text();
        assertTrue(out.chars().allMatch(c -> c < 0x80), out);
        assertEquals(new ObjectMapper().readTree(EVENT), new ObjectMapper().readTree(out));
    }

    /** What Fabric8's watch reads each chunk with: the decoded array must hold the text and nothing behind it. */
    @Test
    void theClientsDecodingOfEachChunkLeavesNoNulBehind() throws Exception {
        byte[] bytes = EVENT.getBytes(StandardCharsets.UTF_8);
        char[] unprotected = StandardCharsets.UTF_8.decode(ByteBuffer.wrap(bytes)).array();
        assertTrue(new String(unprotected).indexOf('\0') >= 0, "the client's own decoding pads with NULs");

        stream.consume(List.of(ByteBuffer.wrap(bytes)), null);
        char[] decoded = StandardCharsets.UTF_8.decode(received.get(0)).array();
        assertEquals(-1, new String(decoded).indexOf('\0'), new String(decoded));
    }

    @Test
    void aCharacterSplitAcrossChunksAndCallsIsCarried() throws Exception {
        byte[] bytes = EVENT.getBytes(StandardCharsets.UTF_8);
        int euro = EVENT.indexOf('\u20ac');
        int inEuro = new String(EVENT.substring(0, euro)).getBytes(StandardCharsets.UTF_8).length + 1;
        int inRocket = EVENT.substring(0, EVENT.indexOf('\ud83d')).getBytes(StandardCharsets.UTF_8).length + 2;
        stream.consume(List.of(ByteBuffer.wrap(Arrays.copyOfRange(bytes, 0, inEuro)),
                ByteBuffer.wrap(Arrays.copyOfRange(bytes, inEuro, inRocket))), null);
        stream.consume(List.of(ByteBuffer.wrap(Arrays.copyOfRange(bytes, inRocket, bytes.length))), null);
        assertEquals(new ObjectMapper().readTree(EVENT), new ObjectMapper().readTree(text()));
    }

    private static ByteBuffer utf8(String text) {
        return ByteBuffer.wrap(text.getBytes(StandardCharsets.UTF_8));
    }

    private String text() {
        StringBuilder all = new StringBuilder();
        for (ByteBuffer chunk : received) {
            all.append(StandardCharsets.US_ASCII.decode(chunk.duplicate()));
        }
        return all.toString();
    }
}
