package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.testing.GoldenFiles;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.Set;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QacctRecordTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    /** Each captured answer of qacct -j ID (golden/gridengine/README.md) and what Gantry reads in it. */
    @ParameterizedTest
    @ValueSource(strings = {"succeeded", "exit-3", "qdel-running", "sigkill-itself", "h-rt-limit",
        "working-directory-missing", "parallel-two-slots", "array-two-tasks", "rescheduled-then-succeeded",
        "rescheduled-twice-then-deleted", "not-found"})
    void capturedAnswersReadAsTheGoldenFilesSay(String name) {
        List<QacctRecord> records = QacctRecord.parse(GOLDEN.read("gridengine/qacct/" + name + ".txt"));
        List<String> lines = records.isEmpty() ? List.of("(no accounting record)")
                : records.stream().map(QacctRecordTest::describe).toList();
        GOLDEN.assertLines("gridengine/qacct/" + name + ".expected", lines);
    }

    @Test
    void aRescheduledJobIsReadFromItsLastBlockAndItsReschedulesCounted() {
        String text = GOLDEN.read("gridengine/qacct/rescheduled-then-succeeded.txt");
        QacctRecord last = QacctRecord.latest(text).orElseThrow();
        assertEquals(JobState.SUCCEEDED, last.endState());
        assertEquals(Optional.of(LocalDateTime.of(2026, 12, 2, 2, 3, 43)), last.startTime());
        assertEquals(1, QacctRecord.reschedules(QacctRecord.parse(text)));
        List<QacctRecord> deleted = QacctRecord.parse(
                GOLDEN.read("gridengine/qacct/rescheduled-twice-then-deleted.txt"));
        assertEquals(2, QacctRecord.reschedules(deleted));
        // The last run was a reschedule and none followed: qdel took the job while it waited to run again.
        assertEquals(JobState.PENDING, deleted.get(1).endState());
        assertEquals(Optional.empty(), deleted.get(1).startTime());
    }

    @Test
    void aKilledRunIsAFailureWithItsSignal() {
        QacctRecord killed = QacctRecord.latest(GOLDEN.read("gridengine/qacct/qdel-running.txt")).orElseThrow();
        assertEquals(100, killed.failedCode());
        assertEquals("assumedly after job", killed.failedText());
        assertEquals(Optional.of(QacctFailure.ASSUMEDLY_AFTER_JOB), killed.failure());
        assertEquals(137, killed.exitStatus());
        assertEquals(OptionalInt.of(9), killed.signal());
        assertEquals(JobState.FAILED, killed.endState());
        QacctRecord limit = QacctRecord.latest(GOLDEN.read("gridengine/qacct/h-rt-limit.txt")).orElseThrow();
        assertEquals(QacctFailure.QMASTER_ENFORCED_LIMIT, limit.failure().orElseThrow());
        assertTrue(limit.meaning().contains("raise the limit"), limit.meaning());
        QacctRecord exit3 = QacctRecord.latest(GOLDEN.read("gridengine/qacct/exit-3.txt")).orElseThrow();
        assertEquals(JobState.FAILED, exit3.endState());
        assertEquals("exited with 3", exit3.meaning());
    }

    @Test
    void anArrayJobHasABlockPerTask() {
        List<QacctRecord> tasks = QacctRecord.parse(GOLDEN.read("gridengine/qacct/array-two-tasks.txt"));
        assertEquals(List.of(OptionalInt.of(1), OptionalInt.of(2)), tasks.stream().map(QacctRecord::taskId).toList());
        assertEquals(List.of(JobState.SUCCEEDED, JobState.FAILED), tasks.stream().map(QacctRecord::endState).toList());
    }

    @Test
    void aJobWithoutAccountingIsEmptyAndOnlyThat() {
        assertEquals(List.of(), QacctRecord.parse("error: job id 9999 not found\n"));
        assertEquals(Optional.empty(), QacctRecord.latest("error: job id 9999 not found"));
        for (String bad : List.of("", " \n", "error: can't open accounting file \"/var/lib/gridengine/default/"
                + "common/accounting\"", "qname all.q\njobnumber 1")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QacctRecord.parse(bad));
            assertTrue(e.getMessage().startsWith("qacct"), e.getMessage());
        }
    }

    @Test
    void malformedBlocksAreRefusedNamingTheField() {
        String text = GOLDEN.read("gridengine/qacct/exit-3.txt");
        assertRefused(text.replaceFirst("(?m)^exit_status.*\\n", ""), "qacct block 1 has no 'exit_status' field");
        assertRefused(text.replaceFirst("(?m)^failed .*$", "failed       none"), "failed 'none'");
        assertRefused(text.replaceFirst("(?m)^jobnumber .*$", "jobnumber    8x"), "jobnumber '8x'");
        assertRefused(text.replaceFirst("(?m)^taskid .*$", "taskid       all"), "taskid 'all'");
        assertRefused(text.replaceFirst("Wed Dec  2 02:02:33 2026", "Mi Dez  2 02:02:33 2026"),
                "LC_ALL=C");
        assertRefused(text + "==============================================================\ngarbage\n",
                "qacct block 2 has no 'qname' field");
    }

    @Test
    void theFailureTableHoldsSgeStatusCodesOnce() {
        Set<Integer> codes = Arrays.stream(QacctFailure.values()).map(QacctFailure::code).collect(Collectors.toSet());
        assertEquals(QacctFailure.values().length, codes.size());
        // sge_status(5) of 8.1.9 lists 0, 1, 3, 4, 6-21, 24-38 and 100.
        assertEquals(36, codes.size());
        assertEquals(Optional.empty(), QacctFailure.of(22));
        assertTrue(QacctFailure.RESCHEDULING.ran());
        assertEquals(QacctFailure.Stage.REQUEUED, QacctFailure.MIGRATING.stage());
        assertEquals(false, QacctFailure.CHANGING_TO_WORKING_DIRECTORY.ran());
    }

    private static void assertRefused(String text, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QacctRecord.parse(text));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static String describe(QacctRecord r) {
        return "job=" + r.jobNumber() + " task=" + (r.taskId().isPresent() ? r.taskId().getAsInt() : "-")
                + " name=" + r.jobName() + " owner=" + r.owner() + " queue=" + r.queue() + " host=" + r.hostname()
                + " pe=" + r.parallelEnvironment().orElse("-") + " slots=" + r.slots()
                + " submitted=" + iso(r.submitTime()) + " started=" + iso(r.startTime()) + " ended=" + iso(r.endTime())
                + " failed=" + r.failedCode() + (r.failedText().isEmpty() ? "" : " (" + r.failedText() + ")")
                + " exit=" + r.exitStatus() + " -> " + r.endState() + ": " + r.meaning();
    }

    private static String iso(Optional<LocalDateTime> time) {
        return time.map(t -> t.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).orElse("-");
    }
}
