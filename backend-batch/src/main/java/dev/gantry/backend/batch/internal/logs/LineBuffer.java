package dev.gantry.backend.batch.internal.logs;

import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

/**
 * Bytes into lines: complete lines come out as their newline arrives, split on bytes so a multi-byte character cut
 * by a range is whole again before it is decoded; the unfinished last line waits for {@link #flush}.
 */
final class LineBuffer {
    private final ByteArrayOutputStream partial = new ByteArrayOutputStream();

    /** The lines {@code bytes} completes, in order. */
    List<String> add(byte[] bytes) {
        List<String> lines = new ArrayList<>();
        for (byte b : bytes) {
            if (b == '\n') {
                lines.add(line());
            } else {
                partial.write(b);
            }
        }
        return lines;
    }

    /** How many bytes of an unfinished line wait. */
    int pending() {
        return partial.size();
    }

    /** The unfinished last line, if there is one (once the file is complete). */
    List<String> flush() {
        return partial.size() == 0 ? List.of() : List.of(line());
    }

    private String line() {
        String text = partial.toString(StandardCharsets.UTF_8);
        partial.reset();
        return text.endsWith("\r") ? text.substring(0, text.length() - 1) : text;
    }
}
