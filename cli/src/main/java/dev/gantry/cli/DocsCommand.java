package dev.gantry.cli;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/**
 * Writes the CLI reference ({@link CliReference}) into a directory, {@code docs/cli} in the repository: for the
 * project's own maintenance, hence hidden. Pages of commands that no longer exist are removed, so the directory
 * holds exactly what the command model has.
 */
@Command(name = "__docs", hidden = true, description = "Write the CLI reference pages into DIR.")
final class DocsCommand implements Callable<Integer> {
    @Spec
    CommandSpec spec;

    @Parameters(index = "0", paramLabel = "DIR", description = "Directory to write the pages into (docs/cli).")
    Path directory;

    @Override
    public Integer call() throws IOException {
        Map<String, String> pages = CliReference.render(CommandTree.everyCommand(spec));
        Files.createDirectories(directory);
        try (DirectoryStream<Path> old = Files.newDirectoryStream(directory, "*.md")) {
            for (Path page : old) {
                if (!pages.containsKey(page.getFileName().toString())) {
                    Files.delete(page);
                }
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot clean " + directory + ": " + e.getMessage());
        }
        for (Map.Entry<String, String> page : pages.entrySet()) {
            Files.writeString(directory.resolve(page.getKey()), page.getValue(), StandardCharsets.UTF_8);
        }
        spec.commandLine().getOut().println("gantry: wrote " + pages.size() + " pages to " + directory);
        return Main.OK;
    }
}
