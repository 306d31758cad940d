package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.LogSink;
import java.util.List;
import java.util.Locale;
import java.util.OptionalInt;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "logs", description = "Print a job's output, or that of a workflow step's latest attempt; --follow "
        + "keeps printing until the job ends.")
final class LogsCommand extends Verb {
    @Parameters(index = "0", paramLabel = "RUN|JOB", description = "Run or job id.")
    String job;

    @Parameters(index = "1", arity = "0..1", paramLabel = "STEP",
            description = "The run's step (or matrix instance); needed when the run has more than one.")
    String step;

    @Option(names = {"-f", "--follow"}, description = "Keep printing new output until the job ends.")
    boolean follow;

    @Option(names = "--tail", paramLabel = "N", description = "Start with the last N lines of each stream.")
    Integer tail;

    @Option(names = "--stream", paramLabel = "STREAM", defaultValue = "both", completionCandidates = Streams.class,
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
        LogSink sink = line -> {
            if (output.json()) {
                ObjectNode node = Json.object();
                node.put("stream", line.stream().name().toLowerCase(Locale.ROOT));
                node.put("node", line.node());
                node.put("text", line.text());
                Json.printLine(env().out(), node);
            } else {
                (line.stream() == LogLine.Stream.STDERR ? env().err() : env().out()).println(line.text());
            }
        };
        if (root.gantry().runs().exists(job)) {
            root.gantry().runs().logs(job, stepOf(job), options, sink);
        } else if (step != null) {
            throw new picocli.CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("logs"),
                    "'" + job + "' is a job, not a run: it has no steps; drop STEP '" + step + "'");
        } else {
            root.gantry().logs(job, options, sink);
        }
        env().out().flush();
        env().err().flush();
        return Main.OK;
    }

    /** The step asked for, or the run's only one. */
    private String stepOf(String runId) {
        if (step != null) {
            return step;
        }
        List<String> steps = root.gantry().runs().snapshot(runId).steps().stream().map(s -> s.name()).sorted()
                .toList();
        if (steps.size() == 1) {
            return steps.get(0);
        }
        throw new picocli.CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("logs"),
                "run " + runId + " has " + steps.size() + " steps; name one: gantry logs " + runId + " STEP, with "
                + "STEP one of " + String.join(", ", steps));
    }

    /** The values of --stream, for shell completion. */
    static final class Streams implements Iterable<String> {
        @Override
        public java.util.Iterator<String> iterator() {
            return java.util.List.of("stdout", "stderr", "both").iterator();
        }
    }
}
