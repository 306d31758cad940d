package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.testing.GoldenFiles;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

/** status.sh's output, with qstat's XML and qacct's records as the real 8.1.9 printed them (golden/gridengine). */
class GridEngineStatusReportTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final Instant NOW = Instant.parse("2026-12-02T02:01:00Z");
    private static final String STARTED = "\t1764640800 0 1764640800";

    private static String j(String id, String number, String started, String exit, String failure,
                            String cancelled, String unsatisfied) {
        return String.join("\t", "J", id, number, started, exit, failure, cancelled, unsatisfied);
    }

    private static List<String> qstat(String golden) {
        List<String> lines = new ArrayList<>(List.of("=qstat"));
        lines.addAll(GOLDEN.read("gridengine/qstat/" + golden).lines().toList());
        lines.add("=end-qstat");
        return lines;
    }

    private static List<String> accounting(String number, String golden) {
        return GOLDEN.read("gridengine/qacct/" + golden).lines().map(l -> "A\t" + number + "\t" + l).toList();
    }

    private static Map<String, JobStatus> parse(List<String> jobs, List<String> qstat, List<String> accounting) {
        List<String> lines = new ArrayList<>(jobs);
        lines.addAll(qstat);
        lines.addAll(accounting);
        return GridEngineStatusReport.parse(lines, NOW);
    }

    @Test
    void queuedJobsTakeGridEnginesState() {
        Map<String, JobStatus> s = parse(List.of(j("job-long", "2", "2 0 1764640799", "", "", "", ""),
                j("job-held", "4", "", "", "", "", ""), j("job-broken", "5", "", "", "", "", "")),
                qstat("mixed.xml"), List.of());
        assertEquals(JobState.RUNNING, s.get("job-long").state());
        assertEquals(JobState.PENDING, s.get("job-held").state());
        assertTrue(s.get("job-held").message().contains("held"), s.get("job-held").message());
        assertEquals(JobState.FAILED, s.get("job-broken").state());
        assertTrue(s.get("job-broken").message().contains("qmod -cj 5"), s.get("job-broken").message());
    }

    @Test
    void aJobBackInTheQueueAfterAResheduleCountsAnEviction() {
        JobStatus s = parse(List.of(j("job-long", "2", "2 0 1764640799", "", "", "", "")),
                qstat("rescheduled-pending.xml"), List.of()).get("job-long");
        assertEquals(JobState.PENDING, s.state());
        assertEquals(1, s.evictions());
    }

    /**
     * From the reschedule to the rerun's own record the job is Rq, then Rr while its script starts: the count is
     * one throughout, and a later reschedule counts when its rerun records its start. It never falls.
     */
    @Test
    void theEvictionCountOfAReruningJobNeverFalls() {
        List<Integer> counts = new ArrayList<>();
        for (String[] poll : new String[][] {{"2 0 1764640799", "rescheduled-pending.xml"},
                {"2 0 1764640799", "rescheduled-running.xml"}, {"2 1 1764640874", "rescheduled-running.xml"},
                {"2 1 1764640874", "rescheduled-pending.xml"}, {"2 1 1764640874", "rescheduled-running.xml"},
                {"2 2 1764640900", "rescheduled-running.xml"}}) {
            JobStatus s = parse(List.of(j("job-long", "2", poll[0], "", "", "", "")), qstat(poll[1]), List.of())
                    .get("job-long");
            assertTrue(s.lastEviction().isPresent(), s.toString());
            counts.add(s.evictions());
        }
        assertEquals(List.of(1, 1, 1, 1, 1, 2), counts);
    }

    @Test
    void anExitRecordEndsTheJobWithItsCode() {
        Map<String, JobStatus> s = parse(List.of(j("job-ok", "11", STARTED.strip(), "0 1764640810 0", "", "", ""),
                j("job-bad", "12", STARTED.strip(), "3 1764640810 0", "", "", ""),
                j("job-missing", "13", STARTED.strip(), "127 1764640810 0",
                        "gantry: command not found: nope (rank 0 on vm)", "", "")), qstat("empty.xml"), List.of());
        assertEquals(JobState.SUCCEEDED, s.get("job-ok").state());
        assertEquals(JobState.FAILED, s.get("job-bad").state());
        assertEquals(OptionalInt.of(3), s.get("job-bad").exitCode());
        assertEquals("command not found: nope (rank 0 on vm) (Grid Engine job 13)", s.get("job-missing").message());
    }

    @Test
    void aJobWhoseDependencyFailedIsCancelledNamingIt() {
        JobStatus s = parse(List.of(j("job-b", "14", STARTED.strip(), "125 1764640810 0", "", "", "job-a 3")),
                qstat("empty.xml"), List.of()).get("job-b");
        assertEquals(JobState.CANCELLED, s.state());
        assertEquals("never ran: its dependency job-a did not succeed (exit code 3)", s.message());
    }

    /** Its shepherd died with it: the host crashed or vanished, as an evicted Spot VM does. */
    @Test
    void aJobWhoseHostWasLostIsPreemptedNeverFailed() {
        JobStatus s = parse(List.of(j("job-spot", "7", STARTED.strip(), "", "", "", "")), qstat("empty.xml"),
                accounting("7", "host-lost.txt")).get("job-spot");
        assertEquals(JobState.PREEMPTED, s.state());
        assertEquals(1, s.evictions());
        assertTrue(s.message().startsWith("its host was lost: Grid Engine job 7 failed 19"), s.message());
    }

    @Test
    void aKilledJobFailsAndACancelledOneIsCancelled() {
        JobStatus killed = parse(List.of(j("job-k", "9", STARTED.strip(), "", "", "", "")), qstat("empty.xml"),
                accounting("9", "qdel-running.txt")).get("job-k");
        assertEquals(JobState.FAILED, killed.state());
        assertEquals(OptionalInt.of(137), killed.exitCode());
        JobStatus cancelled = parse(List.of(j("job-k", "9", STARTED.strip(), "", "", "1764640805", "")),
                qstat("empty.xml"), accounting("9", "qdel-running.txt")).get("job-k");
        assertEquals(JobState.CANCELLED, cancelled.state());
    }

    @Test
    void aTimeLimitOrASetupFailureIsAFailureWithGridEnginesReason() {
        JobStatus limit = parse(List.of(j("job-t", "10", STARTED.strip(), "", "", "", "")), qstat("empty.xml"),
                accounting("10", "h-rt-limit.txt")).get("job-t");
        assertEquals(JobState.FAILED, limit.state());
        assertTrue(limit.message().contains("raise the limit or checkpoint"), limit.message());
        JobStatus setup = parse(List.of(j("job-w", "5", "", "", "", "", "")), qstat("empty.xml"),
                accounting("5", "working-directory-missing.txt")).get("job-w");
        assertEquals(JobState.FAILED, setup.state());
        assertTrue(setup.message().contains("failed 28"), setup.message());
    }

    @Test
    void aJobBetweenTheQueueAndItsAccountingIsStillRunning() {
        JobStatus s = parse(List.of(j("job-x", "15", STARTED.strip(), "", "", "", "")), qstat("empty.xml"),
                List.of()).get("job-x");
        assertEquals(JobState.RUNNING, s.state());
        assertTrue(s.message().contains("accounting record is not written yet"), s.message());
    }

    @Test
    void aJobWithoutItsNumberIsBeingSubmittedOrWasCancelledFirst() {
        Map<String, JobStatus> s = parse(List.of(j("job-new", "", "", "", "", "", ""),
                j("job-gone", "", "", "", "", "1764640805", ""), "J\t-\tjob-none"), List.of(), List.of());
        assertEquals(JobState.PENDING, s.get("job-new").state());
        assertEquals(JobState.CANCELLED, s.get("job-gone").state());
        assertEquals(JobState.UNKNOWN, s.get("job-none").state());
        assertTrue(s.get("job-none").message().startsWith("no job job-none"));
    }

    @Test
    void aRerunThatSucceededCountsItsEvictions() {
        JobStatus s = parse(List.of(j("job-r", "16", "16 1 1764640850", "0 1764640860 1", "", "", "")),
                qstat("empty.xml"), List.of()).get("job-r");
        assertEquals(JobState.SUCCEEDED, s.state());
        assertEquals(1, s.evictions());
    }

    @Test
    void aQstatThatFailedFailsThePoll() {
        GantryException e = assertThrows(GantryException.class, () -> GridEngineStatusReport.parse(List.of(
                j("job-x", "15", "", "", "", "", ""), "E\tqstat failed (exit 1): error: commlib error"), NOW));
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().contains("is sge_qmaster up?"), e.getMessage());
    }
}
