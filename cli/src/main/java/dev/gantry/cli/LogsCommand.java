package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import java.util.Locale;
import java.util.OptionalInt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "logs", description = "Print a job's output; --follow keeps printing until the job ends.")
final class LogsCommand extends Verb {
    @Parameters(index = "0", paramLabel = "JOB", description = "Job id.")
    String job;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends.")
    boolean follow;

    @Option(names = "--tail", paramLabel = "N", description = "Start with the last N lines of each stream.")
    Integer tail;

    @Option(names = "--stream", paramLabel = "STREAM", defaultValue = "both",
            description = "stdout, stderr or both (default: ${DEFAULT-VALUE}).")
    String stream;

    @Override
    public Integer call() throws Exception {
        boolean stdout = stream.equals("both") || stream.equals("stdout");
        boolean stderr = stream.equals("both") || stream.equals("stderr");
        if (!stdout && !stderr) {
            throw new picocli.CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("logs"),
                    "--stream must be stdout, stderr or both, got '" + stream + "'");
        }
        if (tail != null && tail < 0) {
            throw new picocli.CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("logs"),
                    "--tail must be >= 0, got " + tail);
        }
        LogOptions options = new LogOptions(follow, tail == null ? OptionalInt.empty() : OptionalInt.of(tail),
                stdout, stderr);
        root.gantry().logs(job, options, line -> {
            if (output.json()) {
                ObjectNode node = Json.object();
                node.put("stream", line.stream().name().toLowerCase(Locale.ROOT));
                node.put("node", line.node());
                node.put("text", line.text());
                Json.printLine(env().out(), node);
            } else {
                (line.stream() == LogLine.Stream.STDERR ? env().err() : env().out()).println(line.text());
            }
        });
        env().out().flush();
        env().err().flush();
        return Main.OK;
    }
}
