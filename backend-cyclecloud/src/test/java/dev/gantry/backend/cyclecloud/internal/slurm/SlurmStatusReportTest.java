package dev.gantry.backend.cyclecloud.internal.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.Eviction;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * What status.sh prints (J: a job directory's records; Q: squeue's {@code JobID|State|Reason|RestartCnt|StartTime|
 * EndTime|Comment|}; C: a completion log line) and the status each job gets.
 */
class SlurmStatusReportTest {
    private static final Instant NOW = Instant.parse("2026-01-01T12:00:00Z");
    private static final Instant T10_00 = Instant.parse("2026-01-01T10:00:00Z");
    private static final Instant T10_05 = Instant.parse("2026-01-01T10:05:00Z");
    private static final Instant T10_30 = Instant.parse("2026-01-01T10:30:00Z");
    private static final Instant T11_00 = Instant.parse("2026-01-01T11:00:00Z");
    /** The started record of run 0 at 10:00, as the batch script writes it: Slurm id, run, epoch seconds. */
    private static final String STARTED = " 0 " + T10_00.getEpochSecond();
    /** An exit record at 10:30 of run 0: code, epoch seconds, run. */
    private static final String EXIT_AT_10_30 = " " + T10_30.getEpochSecond() + " 0";
    private static final String NEVER = "";

    /** status.sh's J line for job-a: slurm id, started, exit, first failure line, cancelled. */
    private static String j(String slurmId, String started, String exit, String failure, String cancelled) {
        return String.join("\t", "J", "job-a", slurmId, started, exit, failure, cancelled);
    }

    private static String q(String squeueLine) {
        return "Q\t" + squeueLine;
    }

    /** A jobcomp/filetxt line as Slurm writes it, for job-a's Slurm job. */
    private static String c(String slurmId, String state, String exitCode) {
        return "C\tJobId=" + slurmId + " UserId=azureuser(20001) GroupId=azureuser(20001) Name=job-a JobState="
                + state + " Partition=hpc TimeLimit=UNLIMITED StartTime=2026-01-01T10:00:00 "
                + "EndTime=2026-01-01T10:30:00 NodeList=gantry-c1 NodeCnt=1 ProcCnt=8 WorkDir=/shared/gantry/job-a "
                + "ReservationName= Tres=cpu=8,mem=8000M,node=1,billing=8 Account= QOS= WcKey= Cluster=gantry "
                + "SubmitTime=2026-01-01T09:59:58 EligibleTime=2026-01-01T09:59:58 DerivedExitCode=0:0 ExitCode="
                + exitCode;
    }

    private static JobStatus statusOf(String... lines) {
        Map<String, JobStatus> statuses = SlurmStatusReport.parse(List.of(lines), NOW);
        assertEquals(List.of("job-a"), List.copyOf(statuses.keySet()));
        return statuses.get("job-a");
    }

    private static Arguments row(String name, List<String> lines, JobState state, OptionalInt exit, String message,
                                 int evictions, Optional<Instant> start, Optional<Instant> end) {
        return Arguments.of(name, lines, state, exit, message, evictions, start, end);
    }

    private static final OptionalInt NONE = OptionalInt.empty();

    static Stream<Arguments> table() {
        return Stream.of(
                row("running", List.of(j("4101", "4101" + STARTED, NEVER, "", ""),
                                q("4101|RUNNING|None|0|2026-01-01T10:00:00|2026-01-02T10:00:00|(null)|")),
                        JobState.RUNNING, NONE, "Slurm job 4101 running", 0, Optional.of(T10_00), Optional.empty()),
                row("pending: squeue's StartTime is only Slurm's expectation",
                        List.of(j("4102", NEVER, NEVER, "", ""),
                                q("4102|PENDING|Resources|0|2026-01-01T13:00:00|2026-01-02T13:00:00|(null)|")),
                        JobState.PENDING, NONE, "Slurm job 4102 waiting for resources (Resources)", 0,
                        Optional.empty(), Optional.empty()),
                row("nodes booting", List.of(j("4102", NEVER, NEVER, "", ""),
                                q("4102|CONFIGURING|None|0|2026-01-01T10:00:00|2026-01-02T10:00:00|(null)|")),
                        JobState.PROVISIONING, NONE, "Slurm job 4102 nodes being configured (booting or powering "
                                + "up)", 0, Optional.empty(), Optional.empty()),
                row("completed with its exit record", List.of(j("4103", "4103" + STARTED, "0" + EXIT_AT_10_30, "", ""),
                                q("4103|COMPLETED|None|0|2026-01-01T10:00:00|2026-01-01T10:30:00|(null)|")),
                        JobState.SUCCEEDED, OptionalInt.of(0), "completed (Slurm job 4103)", 0, Optional.of(T10_00),
                        Optional.of(T10_30)),
                row("failed: the exit record's code and the rank's failure line",
                        List.of(j("4104", "4104" + STARTED, "127" + EXIT_AT_10_30,
                                        "gantry: command not found: trian.py (rank 0 on gantry-c1)", ""),
                                q("4104|FAILED|NonZeroExitCode|0|2026-01-01T10:00:00|2026-01-01T10:30:00|(null)|")),
                        JobState.FAILED, OptionalInt.of(127), "command not found: trian.py (rank 0 on gantry-c1) "
                                + "(Slurm job 4104)", 0, Optional.of(T10_00), Optional.of(T10_30)),
                row("failed without an exit record", List.of(j("4105", "4105" + STARTED, NEVER, "", ""),
                                q("4105|FAILED|NonZeroExitCode|0|2026-01-01T10:00:00|2026-01-01T10:30:00|(null)|")),
                        JobState.FAILED, OptionalInt.of(1), "exited with code 1 (Slurm job 4105)", 0,
                        Optional.of(T10_00), Optional.of(T10_30)),
                row("killed at its time limit", List.of(j("4105", "4105" + STARTED, NEVER, "", ""),
                                q("4105|TIMEOUT|TimeLimit|0|2026-01-01T10:00:00|2026-01-01T11:00:00|(null)|")),
                        JobState.FAILED, NONE, "Slurm job 4105 killed at its time limit; raise the time limit or "
                                + "checkpoint (TimeLimit)", 0, Optional.of(T10_00), Optional.of(T11_00)),
                row("squeue forgot it, its exit record says 0", List.of(j("4106", "4106" + STARTED,
                                "0" + EXIT_AT_10_30, "", "")),
                        JobState.SUCCEEDED, OptionalInt.of(0), "completed (Slurm job 4106)", 0, Optional.of(T10_00),
                        Optional.of(T10_30)),
                row("squeue forgot it, its exit record says 2", List.of(j("4106", "4106" + STARTED,
                                "2" + EXIT_AT_10_30, "", "")),
                        JobState.FAILED, OptionalInt.of(2), "exited with code 2 (Slurm job 4106)", 0,
                        Optional.of(T10_00), Optional.of(T10_30)),
                row("squeue forgot it, the completion log says FAILED 3:0", List.of(j("4107", "4107" + STARTED,
                                NEVER, "", ""), c("4107", "FAILED", "3:0")),
                        JobState.FAILED, OptionalInt.of(3), "exited with code 3 (Slurm job 4107)", 0,
                        Optional.of(T10_00), Optional.of(T10_30)),
                row("squeue forgot it, the completion log says CANCELLED", List.of(j("4108", "4108" + STARTED,
                                NEVER, "", ""), c("4108", "CANCELLED", "0:15")),
                        JobState.CANCELLED, OptionalInt.of(143), "Slurm job 4108 cancelled (from Slurm's completion "
                                + "log)", 0, Optional.of(T10_00), Optional.of(T10_30)),
                row("squeue forgot it, the completion log says NODE_FAIL: an eviction, no exit code",
                        List.of(j("4109", "4109" + STARTED, NEVER, "", ""), c("4109", "NODE_FAIL", "0:0")),
                        JobState.PREEMPTED, NONE, "Slurm job 4109 its node failed (evicted); resumable from its last "
                                + "checkpoint (from Slurm's completion log)", 1, Optional.of(T10_00),
                        Optional.of(T10_30)),
                row("nothing left: unknown, with the jobCompLog hint", List.of(j("4110", "4110" + STARTED, NEVER,
                                "", "")),
                        JobState.UNKNOWN, NONE, "Slurm no longer lists its job 4110 (past MinJobAge) and the job "
                                + "left no exit record; set backends.cyclecloud.jobCompLog to Slurm's JobCompLoc "
                                + "(jobcomp/filetxt) so that ended jobs stay known", 0, Optional.empty(),
                        Optional.empty()),
                row("no job directory", List.of("J\t-\tjob-a"),
                        JobState.UNKNOWN, NONE, "no job job-a in the cluster's work directory", 0, Optional.empty(),
                        Optional.empty()),
                row("no Slurm id yet: being submitted", List.of(j(NEVER, NEVER, NEVER, "", "")),
                        JobState.PENDING, NONE, "being submitted: no Slurm job id is recorded yet", 0,
                        Optional.empty(), Optional.empty()),
                row("cancelled before it was submitted: no Slurm id, ever", List.of(j(NEVER, NEVER, NEVER, "",
                                "1767261500")),
                        JobState.CANCELLED, NONE, "cancelled before it was submitted to Slurm", 0, Optional.empty(),
                        Optional.empty()),
                row("requeued after an eviction", List.of(j("4111", "4111" + STARTED, NEVER, "", ""),
                                q("4111|REQUEUED|NodeFail|1|2026-01-01T10:00:00|2026-01-01T10:05:00|(null)|")),
                        JobState.PENDING, NONE, "Slurm job 4111 requeued after an eviction; it runs again "
                                + "(NodeFail)", 1, Optional.of(T10_00), Optional.empty()),
                row("pending again after a requeue", List.of(j("4112", "4112" + STARTED, NEVER, "", ""),
                                q("4112|PENDING|BeginTime|1|2026-01-01T10:07:00|N/A|(null)|")),
                        JobState.PENDING, NONE, "Slurm job 4112 waiting for resources (BeginTime)", 1,
                        Optional.of(T10_00), Optional.empty()),
                row("running again after a requeue", List.of(j("4113", "4113 1 " + T11_00.getEpochSecond(), NEVER,
                                "", ""), q("4113|RUNNING|None|1|2026-01-01T11:00:00|2026-01-02T11:00:00|(null)|")),
                        JobState.RUNNING, NONE, "Slurm job 4113 running", 1, Optional.of(T11_00), Optional.empty()),
                row("its node failed and Slurm did not requeue it", List.of(j("4114", "4114" + STARTED, NEVER, "",
                                ""), q("4114|NODE_FAIL|NodeFail|0|2026-01-01T10:00:00|2026-01-01T10:05:00|(null)|")),
                        JobState.PREEMPTED, NONE, "Slurm job 4114 its node failed (evicted); resumable from its last "
                                + "checkpoint (NodeFail)", 1, Optional.of(T10_00), Optional.of(T10_05)),
                row("cancelled by Slurm: a dependency failed", List.of(j("4115", NEVER, NEVER, "", ""),
                                q("4115|CANCELLED|DependencyNeverSatisfied|0|N/A|2026-01-01T10:05:00|"
                                        + "gantry-depends-on=job-prep|")),
                        JobState.CANCELLED, NONE, "cancelled by Slurm: its dependency can never be satisfied "
                                + "(job-prep did not end as required)", 0, Optional.empty(), Optional.of(T10_05)),
                row("cancelled by the user while listed", List.of(j("4116", "4116" + STARTED, "143" + EXIT_AT_10_30,
                                "", "1767263390"),
                                q("4116|CANCELLED|None|0|2026-01-01T10:00:00|2026-01-01T10:30:00|(null)|")),
                        JobState.CANCELLED, OptionalInt.of(143), "Slurm job 4116 cancelled", 0, Optional.of(T10_00),
                        Optional.of(T10_30)),
                row("cancelled marker and exit record, squeue forgot it", List.of(j("4116", "4116" + STARTED,
                                "143" + EXIT_AT_10_30, "", "1767263390")),
                        JobState.CANCELLED, OptionalInt.of(143), "cancelled (Slurm job 4116)", 0,
                        Optional.of(T10_00), Optional.of(T10_30)),
                row("a cancel that came after it completed changes nothing", List.of(j("4116", "4116" + STARTED,
                                "0" + EXIT_AT_10_30, "", "1767263390")),
                        JobState.SUCCEEDED, OptionalInt.of(0), "completed (Slurm job 4116)", 0, Optional.of(T10_00),
                        Optional.of(T10_30)),
                row("cancelled marker alone, squeue forgot it", List.of(j("4116", "4116" + STARTED, NEVER, "",
                                "1767263390")),
                        JobState.CANCELLED, NONE, "cancelled (Slurm job 4116)", 0, Optional.of(T10_00),
                        Optional.empty()),
                row("a state a newer Slurm has", List.of(j("4117", "4117" + STARTED, NEVER, "", ""),
                                q("4117|RECONFIG_HOLD|None|0|2026-01-01T10:00:00|N/A|(null)|")),
                        JobState.UNKNOWN, NONE, "Slurm job 4117 is in state 'RECONFIG_HOLD', which this version of "
                                + "Gantry does not know", 0, Optional.empty(), Optional.empty()),
                row("squeue's columns padded", List.of(j("4118", "4118" + STARTED, NEVER, "", ""),
                                q("4118                |RUNNING             |None                |0        "
                                        + "           |2026-01-01T10:00:00 |2026-01-02T10:00:00 |(null)      "
                                        + "        |")),
                        JobState.RUNNING, NONE, "Slurm job 4118 running", 0, Optional.of(T10_00), Optional.empty()));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void eachStatusOutputGivesItsJobStatus(String name, List<String> lines, JobState state, OptionalInt exit,
                                           String message, int evictions, Optional<Instant> start,
                                           Optional<Instant> end) {
        JobStatus status = statusOf(lines.toArray(String[]::new));
        assertEquals(state, status.state(), "state of " + status);
        assertEquals(exit, status.exitCode(), "exit code of " + status);
        assertEquals(message, status.message());
        assertEquals(evictions, status.evictions(), "evictions of " + status);
        assertEquals(start, status.startedAt(), "start of " + status);
        assertEquals(end, status.endedAt(), "end of " + status);
    }

    @Test
    void aRequeueIsAnEvictionAtTheEvictedRunsStartNeverAFailure() {
        JobStatus status = statusOf(j("4111", "4111" + STARTED, NEVER, "", ""),
                q("4111|REQUEUED|NodeFail|1|2026-01-01T10:00:00|2026-01-01T10:05:00|(null)|"));
        assertEquals(Optional.of(new Eviction(T10_00, "Slurm requeued the job after its node failed or it was "
                + "preempted (1 time)")), status.lastEviction());
        assertTrue(status.requeued());
    }

    @Test
    void aJobRequeuedTwiceCountsTwoEvictionsSeenNowWhenItNeverStartedHere() {
        JobStatus status = statusOf(j("4112", NEVER, NEVER, "", ""),
                q("4112|REQUEUE_HOLD|JobHeldAdmin|2|N/A|N/A|(null)|"));
        assertEquals(JobState.PENDING, status.state());
        assertEquals(2, status.evictions());
        assertEquals(Optional.of(new Eviction(NOW, "Slurm requeued the job after its node failed or it was "
                + "preempted (2 times)")), status.lastEviction());
    }

    @Test
    void aPreemptedJobsEvictionSaysWhatSlurmSaid() {
        JobStatus status = statusOf(j("4114", "4114" + STARTED, NEVER, "", ""),
                q("4114|PREEMPTED|None|0|2026-01-01T10:00:00|2026-01-01T10:05:00|(null)|"));
        assertEquals(JobState.PREEMPTED, status.state());
        assertEquals(Optional.of(new Eviction(T10_00, "Slurm job 4114 preempted by the scheduler; resumable from "
                + "its last checkpoint")), status.lastEviction());
    }

    @Test
    void oneOutputAnswersForEveryJobInTheOrderAsked() {
        Map<String, JobStatus> statuses = SlurmStatusReport.parse(List.of(
                "J\tjob-b\t4202\t\t\t\t",
                "J\t-\tjob-gone",
                "J\tjob-a\t4201\t4201" + STARTED + "\t\t\t",
                "Q\t4201|RUNNING|None|0|2026-01-01T10:00:00|2026-01-02T10:00:00|(null)|",
                "Q\t4202|PENDING|Priority|0|N/A|N/A|(null)|",
                "Q\t4999|RUNNING|None|0|2026-01-01T10:00:00|N/A|(null)|",
                ""), NOW);
        assertEquals(List.of("job-b", "job-gone", "job-a"), List.copyOf(statuses.keySet()));
        assertEquals(JobState.PENDING, statuses.get("job-b").state());
        assertEquals(JobState.UNKNOWN, statuses.get("job-gone").state());
        assertEquals(JobState.RUNNING, statuses.get("job-a").state());
    }

    @Test
    void aCutSqueueLineIsIgnoredRatherThanMisread() {
        JobStatus status = statusOf(j("4101", "4101" + STARTED, NEVER, "", ""), q("4101|RUNNING|None"));
        assertEquals(JobState.UNKNOWN, status.state(), status.toString());
    }

    @Test
    void slurmsExitCodeIsTheCodeOr128PlusTheSignal() {
        assertEquals(OptionalInt.of(0), SlurmStatusReport.exitCode("0:0"));
        assertEquals(OptionalInt.of(3), SlurmStatusReport.exitCode("3:0"));
        assertEquals(OptionalInt.of(143), SlurmStatusReport.exitCode("0:15"));
        assertEquals(OptionalInt.of(137), SlurmStatusReport.exitCode("0:9"));
        assertEquals(OptionalInt.of(2), SlurmStatusReport.exitCode("2"));
        assertEquals(OptionalInt.empty(), SlurmStatusReport.exitCode(""));
        assertEquals(OptionalInt.empty(), SlurmStatusReport.exitCode("N/A"));
    }

    /** A task of a job array is ARRAY_TASK to squeue -r's JobArrayID, and to the completion log's array fields. */
    @Test
    void aTaskOfAJobArrayIsFoundInTheQueueAndInTheCompletionLogByItsArrayAndIndex() {
        JobStatus running = statusOf(j("4101_3", "4105" + STARTED, NEVER, "", ""),
                q("4101_3|RUNNING|None|0|2026-01-01T10:00:00|2026-01-02T10:00:00|(null)|"),
                q("4101_2|RUNNING|None|0|2026-01-01T10:00:00|2026-01-02T10:00:00|(null)|"));
        assertEquals(JobState.RUNNING, running.state());
        assertEquals("Slurm job 4101_3 running", running.message());
        // Forgotten by Slurm, cancelled before it wrote an exit record: the log's line of task 3 (raw id 4105), not
        // that of the array's task 5, whose raw id is the array's own.
        String task3 = c("4105", "CANCELLED", "0:15").replace(" DerivedExitCode=", " ArrayJobId=4101 "
                + "ArrayTaskId=3 DerivedExitCode=");
        String task5 = c("4101", "FAILED", "3:0").replace(" DerivedExitCode=", " ArrayJobId=4101 "
                + "ArrayTaskId=5 DerivedExitCode=");
        JobStatus forgotten = statusOf(j("4101_3", "4105" + STARTED, NEVER, "", ""), task5, task3);
        assertEquals(JobState.CANCELLED, forgotten.state(), forgotten.toString());
    }

    @Test
    void aCompletionLogLineIsReadAsKeyValueWords() {
        Map<String, String> values = SlurmStatusReport.keyValues(c("4107", "FAILED", "3:0").substring(2));
        assertEquals("4107", values.get("JobId"));
        assertEquals("FAILED", values.get("JobState"));
        assertEquals("3:0", values.get("ExitCode"));
        assertEquals("0:0", values.get("DerivedExitCode"));
        assertEquals("cpu=8,mem=8000M,node=1,billing=8", values.get("Tres"));
        assertEquals("", values.get("Account"));
    }
}
