package dev.gantry.ssh;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class ShellQuotingTest {

    /** Characters that mean something to a shell, plus ordinary and non-ASCII ones. */
    private static final String NASTY = "'\"$`\\\n\t ;&|<>(){}[]*?~!#=%-+@:,./^_aZ9\u00e9\u6a21\ud83d\ude80\r";

    @Test
    void quotesEveryGoldenCaseExactly() throws IOException {
        List<String> lines;
        try (InputStream golden = ShellQuotingTest.class.getResourceAsStream("quoting.golden")) {
            lines = new String(golden.readAllBytes(), StandardCharsets.UTF_8).lines()
                    .filter(line -> !line.startsWith("#")).toList();
        }
        assertEquals(0, lines.size() % 2, "golden file must hold in:/out: pairs");
        for (int i = 0; i < lines.size(); i += 2) {
            String input = unescape(lines.get(i).substring("in: ".length()));
            String expected = unescape(lines.get(i + 1).substring("out: ".length()));
            assertEquals(expected, ShellQuoting.quote(input), "quote of " + lines.get(i));
        }
    }

    @Test
    void commandJoinsQuotedWordsWithSpaces() {
        assertEquals("printf '%s\\n' 'a b' '' '$x'",
                ShellQuoting.command(List.of("printf", "%s\\n", "a b", "", "$x")));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sh", "bash", "dash"})
    void everyGoldenArgumentArrivesVerbatimThroughARealShell(String shell) throws Exception {
        List<String> arguments = new ArrayList<>(List.of("", " ", "'", "''", "\"", "$(echo pwned)", "`echo pwned`",
                "${PATH}", "$0", "a;echo pwned", "*", "/*", "?", "[a-z]*", "~", "~/x", "\n", "a\nb\n", "\\", "\\n",
                "-n", "-e", "--", "-", "!", "#", "if", "then", "{", "}", "A=b", "x|y", "&", "<", ">", "2>&1",
                "gr\u00fc\u00dfe", "\u6a21\u578b", "\ud83d\ude80", "\t", "\r\n", "'\"'\"'"));
        assertEquals(arguments, roundTrip(shell, arguments));
    }

    @ParameterizedTest
    @ValueSource(strings = {"sh", "bash"})
    void randomArgumentsArriveVerbatim(String shell) throws Exception {
        Random random = new Random(20260101L);
        int[] codePoints = NASTY.codePoints().toArray();
        for (int batch = 0; batch < 8; batch++) {
            List<String> arguments = new ArrayList<>();
            for (int n = 0; n < 60; n++) {
                StringBuilder argument = new StringBuilder();
                int length = random.nextInt(12);
                for (int c = 0; c < length; c++) {
                    argument.appendCodePoint(codePoints[random.nextInt(codePoints.length)]);
                }
                arguments.add(argument.toString());
            }
            assertEquals(arguments, roundTrip(shell, arguments), "batch " + batch);
        }
    }

    @Test
    void aProgramPathThatNeedsQuotingStillRuns(@TempDir Path dir) throws Exception {
        Path program = dir.resolve("it's a $(program)");
        Files.writeString(program, "#!/bin/sh\nprintf '%s|' \"$@\"\n");
        assertTrue(program.toFile().setExecutable(true));
        assertEquals("a b|;|", new String(runShell("sh", ShellQuoting.command(List.of(program.toString(), "a b", ";"))),
                StandardCharsets.UTF_8));
    }

    @Test
    void refusesWhatNoArgumentCanCarry() {
        GantryException nul = assertThrows(GantryException.class,
                () -> ShellQuoting.command(List.of("echo", "ok", "a\0b")));
        assertEquals(ErrorCode.SPEC_INVALID, nul.code());
        assertTrue(nul.getMessage().startsWith("argv[2]: "), nul.getMessage());
        assertTrue(nul.getMessage().contains("NUL character at index 1"), nul.getMessage());
        GantryException empty = assertThrows(GantryException.class, () -> ShellQuoting.command(List.of()));
        assertTrue(empty.getMessage().contains("argv is empty"), empty.getMessage());
    }

    /** Runs printf '%s\0' ARGS through {@code shell -c} and splits what arrives. */
    private static List<String> roundTrip(String shell, List<String> arguments) throws Exception {
        List<String> argv = new ArrayList<>(List.of("printf", "%s\\000"));
        argv.addAll(arguments);
        byte[] out = runShell(shell, ShellQuoting.command(argv));
        return splitNul(out);
    }

    static List<String> splitNul(byte[] out) {
        List<String> received = new ArrayList<>();
        int start = 0;
        for (int i = 0; i < out.length; i++) {
            if (out[i] == 0) {
                received.add(new String(Arrays.copyOfRange(out, start, i), StandardCharsets.UTF_8));
                start = i + 1;
            }
        }
        assertEquals(out.length, start, "output must end with a NUL");
        return received;
    }

    private static byte[] runShell(String shell, String line) throws Exception {
        Process process = new ProcessBuilder(shell, "-c", line).redirectError(ProcessBuilder.Redirect.INHERIT)
                .start();
        process.getOutputStream().close();
        byte[] out = process.getInputStream().readAllBytes();
        assertTrue(process.waitFor(10, TimeUnit.SECONDS));
        assertEquals(0, process.exitValue(), shell + " -c failed");
        return out;
    }

    private static String unescape(String text) {
        StringBuilder out = new StringBuilder();
        for (int i = 0; i < text.length(); i++) {
            char c = text.charAt(i);
            if (c != '\\') {
                out.append(c);
                continue;
            }
            char next = i + 1 < text.length() ? text.charAt(i + 1) : ' ';
            if ("ntu\\".indexOf(next) < 0) {
                out.append(c);
                continue;
            }
            i++;
            switch (next) {
                case 'n' -> out.append('\n');
                case 't' -> out.append('\t');
                case '\\' -> out.append('\\');
                case 'u' -> {
                    out.append((char) Integer.parseInt(text.substring(i + 1, i + 5), 16));
                    i += 4;
                }
                default -> throw new IllegalArgumentException("bad escape \\" + next + " in " + text);
            }
        }
        return out.toString();
    }
}
