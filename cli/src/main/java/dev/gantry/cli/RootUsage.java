package dev.gantry.cli;

import java.io.IOException;
import java.io.InputStream;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine;

/**
 * {@code gantry --help} without building the command model: the build renders the root usage once (this class's
 * {@link #main}) into the jar, and {@link Main} prints it. Building picocli's model of every command by reflection
 * costs more than the whole JVM start, and a script calling {@code gantry --help} needs none of it. A test proves the
 * stored text equals the live rendering, so the two cannot drift.
 */
public final class RootUsage {
    static final String RESOURCE = "root-usage.txt";

    private RootUsage() {
    }

    /** Renders the root usage into the file {@code args[0]}; run by the build before the jar is made. */
    public static void main(String[] args) throws IOException {
        Path file = Path.of(args[0]);
        Files.createDirectories(file.getParent());
        Files.writeString(file, render(), StandardCharsets.UTF_8);
    }

    /** The root usage as picocli renders it without colours, from the live command model. */
    static String render() {
        StringWriter text = new StringWriter();
        CliEnvironment env = new CliEnvironment(new PrintWriter(text), new PrintWriter(new StringWriter()), Map.of(),
                Path.of("."), Path.of("."));
        GantryCommand root = new GantryCommand(env);
        CommandLine commandLine = CommandTree.full(root);
        commandLine.setColorScheme(CommandLine.Help.defaultColorScheme(CommandLine.Help.Ansi.OFF));
        commandLine.usage(new PrintWriter(text, true));
        return text.toString();
    }

    /** The usage the build stored, or empty when this jar has none (a build that skipped the step). */
    static Optional<String> stored() {
        try (InputStream in = RootUsage.class.getResourceAsStream(RESOURCE)) {
            return in == null ? Optional.empty() : Optional.of(new String(in.readAllBytes(), StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
