package dev.gantry.cli;

import dev.gantry.api.backend.BackendProvider;
import dev.gantry.Gantry;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunRecord;
import java.util.ArrayList;
import java.util.List;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * What the completion scripts ask while a person types ({@code gantry __complete backends runs jobs}): one name per
 * line. It only looks: without a state database it lists no ids rather than creating one, it asks no backend, and
 * on any error it prints nothing (a completion that printed an error would put it on the command line).
 */
@Command(name = "__complete", hidden = true, description = "Names for the shell completion scripts: backends, runs, "
        + "jobs.")
final class CompleteCommand extends Verb {
    /** More ids than anyone picks from at a prompt would only slow the completion down. */
    private static final int MAX_IDS = 500;

    @Parameters(arity = "1..*", paramLabel = "WHAT", description = "backends, runs or jobs.")
    List<String> what;

    @Override
    public Integer call() {
        List<String> names = new ArrayList<>();
        try {
            Gantry gantry = root.gantry();
            for (String kind : what) {
                switch (kind) {
                    case "backends" -> gantry.backends().stream().map(BackendProvider::name).forEach(names::add);
                    case "runs" -> {
                        if (gantry.stateExists()) {
                            gantry.runs().list(MAX_IDS, true).stream().map(RunRecord::id).forEach(names::add);
                        }
                    }
                    case "jobs" -> {
                        if (gantry.stateExists()) {
                            List<JobRecord> jobs = gantry.storedJobs();
                            // Newest first, as 'gantry list' shows runs.
                            for (int i = jobs.size() - 1; i >= 0 && names.size() < MAX_IDS * 2; i--) {
                                names.add(jobs.get(i).id());
                            }
                        }
                    }
                    default -> {
                        return Main.USAGE_ERROR;
                    }
                }
            }
        } catch (RuntimeException | LinkageError e) {
            return Main.RUNTIME_FAILURE;
        }
        names.forEach(env().out()::println);
        return Main.OK;
    }
}
