package dev.gantry.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.model.JobRecord;
import dev.gantry.model.AttemptRecord;
import dev.gantry.model.RunRecord;
import dev.gantry.model.RunState;
import dev.gantry.model.RunStatus;
import dev.gantry.model.StepRecord;
import dev.gantry.model.StepState;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

/** The shared progress line, with a clock the test moves, and which steps of a run it shows as waiting. */
class ProgressLineTest {
    static final Instant T0 = Instant.parse("2026-12-03T17:40:00.250Z");

    /** A clock the test sets. */
    static final class TestClock extends Clock {
        Instant now = T0;

        void advance(Duration d) {
            now = now.plus(d);
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }

    final TestClock clock = new TestClock();
    final StringWriter text = new StringWriter();

    ProgressLine line(ProgressLine.Mode mode) {
        return new ProgressLine(new PrintWriter(text, true), mode, clock, 80);
    }

    @Test
    void plainLinesStartWithTheUtcTimeAndRepeatAStepAtMostEveryThirtySeconds() {
        ProgressLine line = line(ProgressLine.Mode.PLAIN);

        line.step("creating 2 x Standard_D2s_v5 in eastus", "0 of 2 created");
        clock.advance(Duration.ofSeconds(10));
        line.step("creating 2 x Standard_D2s_v5 in eastus", "1 of 2 created");
        line.tick();
        clock.advance(Duration.ofSeconds(20));
        line.tick();
        clock.advance(Duration.ofSeconds(1));
        line.tick();
        line.step("waiting for 2 VMs to be ready", "");
        line.close();

        assertEquals(List.of(
                "2026-12-03T17:40:00Z gantry: creating 2 x Standard_D2s_v5 in eastus (0 of 2 created)",
                "2026-12-03T17:40:30Z gantry: creating 2 x Standard_D2s_v5 in eastus for 30s (1 of 2 created)",
                "2026-12-03T17:40:31Z gantry: waiting for 2 VMs to be ready"), text.toString().lines().toList());
        assertFalse(text.toString().contains("\r"), "no carriage returns in plain mode");
        assertFalse(text.toString().contains("\033"), "no escapes in plain mode");
    }

    @Test
    void aLiveLineIsRedrawnInPlaceWithTheElapsedTimeWithoutColourAndErasedAtTheEnd() {
        ProgressLine line = line(ProgressLine.Mode.LIVE);

        line.step("fetching prices for eastus (Azure Retail Prices API)", "3 pages");
        clock.advance(Duration.ofSeconds(65));
        line.tick();
        line.println("gantry: a notice");
        line.close();

        String drawn = text.toString();
        assertTrue(drawn.startsWith("\r\033[Kfetching prices for eastus (Azure Retail Prices API) (3 pages)"), drawn);
        assertTrue(drawn.contains("\r\033[Kfetching prices for eastus (Azure Retail Prices API) for 1m5s (3 pages)"),
                drawn);
        assertTrue(drawn.contains("\r\033[Kgantry: a notice\n\r\033[Kfetching"), "a notice goes above the line: "
                + drawn);
        assertTrue(drawn.endsWith("\r\033[K"), "erased at the end: " + drawn);
        assertFalse(drawn.matches("(?s).*\033\\[[0-9;]*m.*"), "no colour (SGR) codes: " + drawn);
    }

    @Test
    void aLiveLineLongerThanTheTerminalIsCutSoThatItCannotWrap() {
        ProgressLine line = new ProgressLine(new PrintWriter(text, true), ProgressLine.Mode.LIVE, clock, 30);
        line.step("waiting for 3 VMs to be ready", "vm-1: port 22 does not answer; vm-2: booting");
        assertEquals("\r\033[Kwaiting for 3 VMs to be re...", text.toString());
    }

    @Test
    void quietShowsNothing() {
        ProgressLine line = line(ProgressLine.Mode.QUIET);
        line.step("creating", "");
        clock.advance(Duration.ofMinutes(5));
        line.tick();
        line.close();
        assertEquals("", text.toString());
    }

    @Test
    void aRunsStepIsWaitingWhileItsLatestJobIsPendingOrProvisioning() {
        Instant at = T0;
        JobRecord pending = JobRecord.submitting("job-1", "train", Optional.empty(), "slurm", "plan", at)
                .submitted(new JobRef("slurm", "42"), at);
        JobRecord provisioning = JobRecord.submitting("job-2", "eval", Optional.empty(), "slurm", "plan", at)
                .submitted(new JobRef("slurm", "43"), at)
                .withStatus(JobStatus.of(JobState.PROVISIONING, "nodes powering up"), at);
        JobRecord running = JobRecord.submitting("job-3", "serve", Optional.empty(), "slurm", "plan", at)
                .submitted(new JobRef("slurm", "44"), at).withStatus(JobStatus.of(JobState.RUNNING, ""), at);
        RunRecord run = new RunRecord("run-1", "flow", "flow.yaml", "hash", Optional.empty(), Optional.empty(),
                "catalog", LocalDate.of(2026, 12, 1), "0.1.0", "slurm", RunState.RUNNING, Optional.empty(), at, at,
                Optional.empty());
        RunStatus status = new RunStatus(run, List.of(step("train", StepState.SUBMITTED),
                step("eval", StepState.SUBMITTED), step("serve", StepState.RUNNING), step("report", StepState.WAITING)),
                List.of(attempt("train", "job-1"), attempt("eval", "job-2"), attempt("serve", "job-3")),
                Map.of("job-1", pending, "job-2", provisioning, "job-3", running), at);

        List<RunProgress.Waiting> waiting = RunProgress.waiting(status);

        assertEquals(List.of(new RunProgress.Waiting("train", JobState.PENDING, "waiting for capacity"),
                new RunProgress.Waiting("eval", JobState.PROVISIONING, "nodes powering up")), waiting);
        assertEquals("step train: PENDING for 1m12s (waiting for capacity)", ProgressLine.render(
                waiting.get(0).what(), Duration.ofSeconds(72), waiting.get(0).detail()));
    }

    private static StepRecord step(String name, StepState state) {
        return new StepRecord("run-1", name, state, state == StepState.WAITING ? 0 : 1, 0, Optional.empty(),
                Optional.empty(), T0, 0);
    }

    private static AttemptRecord attempt(String step, String job) {
        return new AttemptRecord("run-1", step, 1, job, OptionalDouble.empty(), false, Optional.empty(), T0, 0,
                Optional.empty());
    }
}
