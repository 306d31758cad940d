package dev.gantry.backend.aks.internal.kube;

import io.fabric8.kubernetes.client.http.AsyncBody;
import java.nio.ByteBuffer;
import java.nio.CharBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CharsetDecoder;
import java.nio.charset.CoderResult;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * A watch stream's bytes made ASCII before the client reads them: every character outside ASCII is written as the
 * JSON escape {@code \}{@code uXXXX} (a supplementary one as its two surrogates), which is the same JSON text, since
 * such characters can only stand inside the events' strings. Why: Fabric8 7.9.0's HTTP watch turns each chunk into
 * characters with {@code UTF_8.decode(chunk).array()}, whose array is as long as the chunk's bytes, so a chunk with
 * a multi-byte character leaves {@code NUL}s behind its text; the next event then fails to parse, and the informer
 * stops for good (the conformance kit's non-ASCII arguments did this). For ASCII the array is exactly the text.
 * Characters split across chunks are carried to the next one.
 */
final class AsciiWatchStream implements AsyncBody.Consumer<List<ByteBuffer>> {
    private final AsyncBody.Consumer<List<ByteBuffer>> next;
    private final CharsetDecoder decoder = StandardCharsets.UTF_8.newDecoder()
            .onMalformedInput(CodingErrorAction.REPLACE).onUnmappableCharacter(CodingErrorAction.REPLACE);
    /** The first bytes of a character the last chunk ended within. */
    private ByteBuffer carried = ByteBuffer.allocate(0);

    AsciiWatchStream(AsyncBody.Consumer<List<ByteBuffer>> next) {
        this.next = next;
    }

    @Override
    public void consume(List<ByteBuffer> chunks, AsyncBody body) throws Exception {
        List<ByteBuffer> ascii = new ArrayList<>(chunks.size());
        for (ByteBuffer chunk : chunks) {
            ascii.add(escape(chunk));
        }
        next.consume(ascii, body);
    }

    private ByteBuffer escape(ByteBuffer chunk) throws CharacterCodingException {
        ByteBuffer input = carried.hasRemaining() ? join(carried, chunk) : chunk;
        CharBuffer text = CharBuffer.allocate(input.remaining() + 1);
        CoderResult result = decoder.decode(input, text, false);
        if (result.isError()) {
            result.throwException(); // not reached: malformed input is replaced
        }
        carried = ByteBuffer.allocate(input.remaining()).put(input).flip();
        text.flip();
        StringBuilder out = new StringBuilder(text.remaining());
        while (text.hasRemaining()) {
            char c = text.get();
            if (c < 0x80) {
                out.append(c);
            } else {
                out.append(String.format("\\u%04x", (int) c));
            }
        }
        return ByteBuffer.wrap(out.toString().getBytes(StandardCharsets.US_ASCII));
    }

    private static ByteBuffer join(ByteBuffer first, ByteBuffer second) {
        return ByteBuffer.allocate(first.remaining() + second.remaining()).put(first).put(second).flip();
    }
}
