package dev.gantry.backend.cyclecloud.internal.pbs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.testing.GoldenFiles;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QstatJsonTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    /** Each answer written after PBS's documented output (golden/pbs/README.md) and what Gantry reads in it. */
    @ParameterizedTest
    @ValueSource(strings = {"running", "finished", "pbspro-19-quirks", "empty"})
    void answersReadAsTheGoldenFilesSay(String name) {
        QstatJson.Answer answer = QstatJson.parse(GOLDEN.read("pbs/qstat/" + name + ".json"));
        List<String> lines = new ArrayList<>();
        lines.add("server=" + answer.pbsServer() + " version=" + answer.pbsVersion() + " timestamp="
                + answer.timestamp());
        answer.jobs().forEach(job -> lines.add(describe(job)));
        GOLDEN.assertLines("pbs/qstat/" + name + ".expected", lines);
    }

    @Test
    void runCountsTellRequeues() {
        QstatJson.Answer running = QstatJson.parse(GOLDEN.read("pbs/qstat/running.json"));
        assertEquals(0, running.job("1042.pbs-server").orElseThrow().requeues());
        // Queued again after one start: requeued once. Running its second start: requeued once.
        assertEquals(1, running.job("1045.pbs-server").orElseThrow().requeues());
        assertEquals(1, running.job("1047.pbs-server").orElseThrow().requeues());
        QstatJson.Answer finished = QstatJson.parse(GOLDEN.read("pbs/qstat/finished.json"));
        QstatJson.Job spot = finished.job("1038.pbs-server").orElseThrow();
        assertEquals(1, spot.requeues());
        assertEquals(JobState.SUCCEEDED, spot.jobState());
    }

    @Test
    void finishedJobsReadTheirEnds() {
        QstatJson.Answer finished = QstatJson.parse(GOLDEN.read("pbs/qstat/finished.json"));
        assertEquals(JobState.SUCCEEDED, finished.job("1030.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.FAILED, finished.job("1031.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.CANCELLED, finished.job("1034.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.CANCELLED, finished.job("1035.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.FAILED, finished.job("1036.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.PREEMPTED, finished.job("1037.pbs-server").orElseThrow().jobState());
        assertEquals(JobState.SUCCEEDED, finished.job("1046[1].pbs-server").orElseThrow().jobState());
        assertEquals(JobState.UNKNOWN, finished.job("1041.pbs-server").orElseThrow().jobState());
        QstatJson.Job walltime = finished.job("1036.pbs-server").orElseThrow();
        assertEquals(Optional.of(PbsExitStatus.JobExec.KILL_WALLTIME), walltime.exitStatus().orElseThrow().special());
        assertEquals(OptionalInt.of(93), walltime.substate());
    }

    @Test
    void documentedQuirksOfOlderReleasesAreRead() {
        QstatJson.Answer legacy = QstatJson.parse(GOLDEN.read("pbs/qstat/pbspro-19-quirks.json"));
        assertEquals("19.1.1", legacy.pbsVersion());
        QstatJson.Job held = legacy.job("53.scheduler").orElseThrow();
        assertEquals(JobState.PENDING, held.jobState());
        assertEquals(Optional.of(LocalDateTime.of(2019, 8, 7, 22, 7, 0)),
                legacy.job("54.scheduler").orElseThrow().startTime());
        String duplicated = "{\"timestamp\":1,\"pbs_version\":\"23.06.06\",\"pbs_server\":\"s\",\"Jobs\":{\"1.s\":"
                + "{\"Job_Name\":\"a\",\"job_state\":\"Q\",\"job_state\":\"R\"}}}";
        assertEquals(JobState.RUNNING, QstatJson.parse(duplicated).jobs().get(0).jobState());
    }

    @Test
    void aServerWithoutJobsIsEmptyAndNothingElseIs() {
        assertEquals(List.of(), QstatJson.parse(GOLDEN.read("pbs/qstat/empty.json")).jobs());
        assertRefused("", "printed nothing");
        assertRefused("  \n", "printed nothing");
        assertRefused("[]", "not a JSON object");
        assertRefused("{}", "no timestamp");
        assertRefused("{\"timestamp\":1,\"pbs_server\":\"s\"}", "no pbs_version");
        assertRefused("qstat: Unknown Job Id 9999.pbs-server", "it starts 'qstat: Unknown Job Id");
        assertRefused("Connection refused\nqstat: cannot connect to server pbs-server (errno=111)",
                "not JSON PBS is known to print");
    }

    @Test
    void malformedOrMixedAnswersAreRefusedWithTheReason() {
        IllegalArgumentException mixed = assertThrows(IllegalArgumentException.class,
                () -> QstatJson.parse(GOLDEN.read("pbs/qstat/fjson-with-u.txt")));
        assertTrue(mixed.getMessage().contains("openpbs#2675"), mixed.getMessage());
        IllegalArgumentException quote = assertThrows(IllegalArgumentException.class,
                () -> QstatJson.parse(GOLDEN.read("pbs/qstat/unescaped-quote.json")));
        assertTrue(quote.getMessage().contains("line 9"), quote.getMessage());
        String running = GOLDEN.read("pbs/qstat/running.json");
        assertRefused(running.substring(0, running.length() / 2), "not JSON PBS is known to print");
        assertRefused(running + "}", "not JSON PBS is known to print");
        String head = "{\"timestamp\":1,\"pbs_version\":\"23.06.06\",\"pbs_server\":\"s\",\"Jobs\":";
        assertRefused(head + "[]}", "Jobs is not an object");
        assertRefused(head + "{\"1.s\":{\"Job_Name\":\"a\"}}}", "job 1.s has no job_state");
        assertRefused(head + "{\"1.s\":{\"job_state\":\"Q\"}}}", "job 1.s has no Job_Name");
        assertRefused(head + "{\"gantry\":{\"Job_Name\":\"a\",\"job_state\":\"Q\"}}}", "'gantry' is not a PBS job id");
        assertRefused(head + "{\"1.s\":{\"Job_Name\":\"a\",\"job_state\":\"F\",\"Exit_status\":\"ok\"}}}",
                "job 1.s has Exit_status 'ok'");
        assertRefused(head + "{\"1.s\":{\"Job_Name\":\"a\",\"job_state\":\"R\",\"stime\":\"1764640800\"}}}",
                "job 1.s has stime '1764640800'");
        assertRefused(head + "{\"1.s\":\"R\"}}", "job 1.s is not an object");
    }

    @Test
    void anUnknownStateIsKeptAsPrintedButNotGuessed() {
        String json = "{\"timestamp\":1,\"pbs_version\":\"23.06.06\",\"pbs_server\":\"s\",\"Jobs\":{\"1.s\":"
                + "{\"Job_Name\":\"a\",\"job_state\":\"C\"}}}";
        QstatJson.Job job = QstatJson.parse(json).jobs().get(0);
        assertEquals("C", job.stateLetter());
        assertEquals(Optional.empty(), job.state());
        assertEquals(JobState.UNKNOWN, job.jobState());
    }

    private static void assertRefused(String json, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QstatJson.parse(json));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static String describe(QstatJson.Job job) {
        return job.id() + " name=" + job.name() + " state=" + job.stateLetter()
                + (job.substate().isPresent() ? "/" + job.substate().getAsInt() : "")
                + job.exitStatus().map(e -> " exit=" + e.value()).orElse("") + " run_count=" + job.runCount()
                + " -> " + job.jobState() + " requeues=" + job.requeues()
                + job.owner().map(o -> " owner=" + o).orElse("") + job.queue().map(q -> " queue=" + q).orElse("")
                + job.account().map(a -> " account=" + a).orElse("")
                + job.startTime().map(t -> " started=" + t.format(DateTimeFormatter.ISO_LOCAL_DATE_TIME)).orElse("")
                + job.exitStatus().map(e -> " (" + e.meaning() + ")").orElse("")
                + job.comment().map(c -> " comment=" + c).orElse("");
    }
}
