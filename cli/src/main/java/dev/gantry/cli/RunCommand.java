package dev.gantry.cli;

import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.Gantry;
import dev.gantry.Runs;
import dev.gantry.SubmitRequest;
import dev.gantry.model.PlanOverrides;
import dev.gantry.model.JobRecord;
import dev.gantry.model.RunRecord;
import dev.gantry.model.SpecDocument;
import dev.gantry.api.Problem;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.stream.Collectors;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "run", description = {"Plan a workload or a workflow and run it on the configured backend.",
        "A workload: streams the job's output and ends with a summary line (one with budget.maxTotal runs as a "
                + "one-step run, held to its budget). A workflow: runs its steps in dependency "
                + "order, shows them as they go and ends with the steps table; running the same workflow again "
                + "resumes its unfinished run. With --detach, prints the job or run id and returns."})
final class RunCommand extends Verb {
    @Parameters(index = "0", paramLabel = "SPEC", description = "Workload or workflow spec file (YAML).")
    Path spec;

    @Option(names = {"-d", "--detach"}, description = "Return once the job is submitted (a workflow: once its run is "
            + "started, a background gantry process driving it); follow it with 'gantry logs' or 'gantry attach'.")
    boolean detach;

    @Option(names = "--idempotency-key", paramLabel = "KEY",
            description = "Job id to use; running again with the same key returns the same job instead of a second one.")
    String idempotencyKey;

    @Option(names = "--label", paramLabel = "KEY=VALUE", description = "A label for the job, added to the workload's "
            + "metadata.labels (on the same key this one wins); repeat it for more. Keys: 1-63 letters, digits, '-', "
            + "'_' or '.', starting and ending with a letter or digit; values: at most 63 characters. Shown by "
            + "'gantry status --output json'. A workload only: a workflow's steps take their workload's labels.")
    Map<String, String> labels = new LinkedHashMap<>();

    @Mixin
    DriveOptions drive;

    @Mixin
    QuotaOption quota;

    @Override
    public Integer call() throws Exception {
        checkLabels();
        Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
        Gantry gantry = root.gantry();
        // Plans as 'gantry plan' shows them: within the subscription's sizes, zones and quota, the run engine's too.
        quota.planWithinSubscription(gantry, env());
        SpecDocument document = gantry.loadAny(file);
        if (document instanceof SpecDocument.WorkflowSpec) {
            if (!labels.isEmpty()) {
                throw usage("--label " + labels.keySet().iterator().next() + "=...: labels are given to a workload's "
                        + "job; a workflow's steps take their workload's metadata.labels (set them in the spec)");
            }
            return runWorkflow(gantry, file, drive.logs);
        }
        if (Runs.heldToBudget(document)) {
            if (!labels.isEmpty() || idempotencyKey != null) {
                throw usage((labels.isEmpty() ? "--idempotency-key" : "--label") + ": a workload with "
                        + "budget.maxTotal runs as a one-step run, which takes its metadata.labels and names its own "
                        + "job; set labels in the spec, or leave maxTotal out to run it as a plain job");
            }
            env().err().println("gantry: " + document.name() + " has budget.maxTotal, so it runs as a one-step run "
                    + "that the run engine holds to its budget");
            return runWorkflow(gantry, file, true);
        }
        Workload workload = ((SpecDocument.WorkloadSpec) document).workload();
        Plan plan = gantry.plan(workload, PlanOverrides.none());
        SubmitRequest request = SubmitRequest.of(plan).specFile(spec).labels(labels);
        JobRecord job = gantry.submit(idempotencyKey == null ? request : request.idempotencyKey(idempotencyKey));
        env().err().println("gantry: submitted " + job.id() + " to " + job.backend() + " (plan: " + job.placement()
                + ")");
        env().err().flush();
        if (detach) {
            if (output.json()) {
                Json.print(env().out(), JobView.json(job));
            } else {
                env().out().println(job.id());
                env().err().println("gantry: follow it with 'gantry logs " + job.id() + " --follow'");
            }
            return Main.OK;
        }
        // Job output goes to our stdout/stderr as it is; in JSON mode stdout carries only the final record.
        gantry.logs(job.id(), LogOptions.following(), line -> {
            boolean toErr = line.stream() == LogLine.Stream.STDERR || output.json();
            (toErr ? env().err() : env().out()).println(line.text());
        });
        env().out().flush();
        env().err().flush();
        JobRecord done = gantry.await(job.id(), drive.timeout);
        if (output.json()) {
            Json.print(env().out(), JobView.json(done));
        } else {
            env().out().println("gantry: " + JobView.summary(done));
        }
        return done.state().name().toUpperCase(Locale.ROOT).equals("SUCCEEDED") ? Main.OK : Main.RUNTIME_FAILURE;
    }

    /**
     * Each --label by the workload's label rule, before anything is read or planned: a usage error (exit 2) naming the
     * option, the value given and what is allowed.
     */
    private void checkLabels() {
        labels.forEach((key, value) -> {
            List<Problem> problems = Workload.labelProblems("labels", Map.of(key, value));
            if (!problems.isEmpty()) {
                throw usage("--label '" + key + "=" + value + "': " + problems.stream().map(Problem::message)
                        .collect(Collectors.joining("; ")) + " (allowed: keys of 1-63 letters, digits, '-', '_' or "
                        + "'.' that start and end with a letter or digit; values of at most 63 characters)");
            }
        });
    }

    private CommandLine.ParameterException usage(String message) {
        return new CommandLine.ParameterException(root.spec.commandLine().getSubcommands().get("run"), message);
    }

    private int runWorkflow(Gantry gantry, Path file, boolean logs) throws InterruptedException {
        Runs runs = gantry.runs();
        Runs.Started started = runs.start(file);
        RunRecord run = started.run();
        env().err().println("gantry: " + (started.resumed() ? "resuming run " : "started run ") + run.id()
                + " of workflow " + run.name() + " (" + started.plan().steps().size() + " jobs on backend "
                + run.backend() + ", at most " + RunView.money(started.plan().pricePerHourAllAtOnce())
                + "/h with every job running at once)");
        env().err().flush();
        if (detach) {
            BackgroundDriver.start(root, run.id(), gantry.stateDirectory(), quota);
            if (output.json()) {
                Json.print(env().out(), RunView.summaryJson(run));
            } else {
                env().out().println(run.id());
                env().err().println("gantry: a background gantry drives it; follow it with 'gantry attach "
                        + run.id() + "' or 'gantry status " + run.id() + "'");
            }
            return Main.OK;
        }
        return Attach.drive(this, runs, run.id(), drive.timeout, logs);
    }
}
