package dev.gantry.backend.cyclecloud.internal.gridengine;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobState;
import dev.gantry.testing.GoldenFiles;
import java.time.LocalDateTime;
import java.time.format.DateTimeFormatter;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class QstatXmlTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden");
    private static final DateTimeFormatter ISO = DateTimeFormatter.ISO_LOCAL_DATE_TIME;

    /** Each captured answer of qstat -xml -u gantryqa (golden/gridengine/README.md) and what Gantry reads in it. */
    @ParameterizedTest
    @ValueSource(strings = {"mixed", "queue-suspended", "job-suspended", "rescheduled-pending", "rescheduled-held",
        "rescheduled-transferring", "rescheduled-running", "deleting", "transferring", "array-range", "escaped-name",
        "empty"})
    void capturedAnswersReadAsTheGoldenFilesSay(String name) {
        List<QstatXml.Job> jobs = QstatXml.parse(GOLDEN.read("gridengine/qstat/" + name + ".xml"));
        List<String> lines = jobs.isEmpty() ? List.of("(no jobs)") : jobs.stream().map(QstatXmlTest::describe).toList();
        GOLDEN.assertLines("gridengine/qstat/" + name + ".expected", lines);
    }

    @Test
    void runningPendingHeldErrorAndArrayJobsInOneAnswer() {
        Map<String, List<QstatXml.Job>> jobs = QstatXml.byJobNumber(
                QstatXml.parse(GOLDEN.read("gridengine/qstat/mixed.xml")));
        assertEquals(List.of("2", "6", "5", "7", "3", "4"), List.copyOf(jobs.keySet()));
        QstatXml.Job running = jobs.get("2").get(0);
        assertEquals(JobState.RUNNING, running.state().orElseThrow().jobState());
        assertEquals(Optional.of(LocalDateTime.of(2026, 12, 2, 1, 59, 59)), running.startTime());
        assertEquals(Optional.of("all.q@vm"), running.queueInstance());
        assertEquals(Optional.of("vm"), running.host());
        List<QstatXml.Job> sweep = jobs.get("6");
        assertEquals(List.of("1", "2", "3,4"), sweep.stream().map(j -> j.tasks().orElseThrow()).toList());
        assertEquals(JobState.FAILED, jobs.get("5").get(0).state().orElseThrow().jobState());
        assertEquals(Optional.empty(), jobs.get("5").get(0).queueInstance());
        assertEquals("hqw", jobs.get("3").get(0).stateLetters());
        assertEquals(2, jobs.get("3").get(0).slots());
    }

    @Test
    void aUserWithNoJobsIsAnEmptyListAndNothingElseIs() {
        assertEquals(List.of(), QstatXml.parse(GOLDEN.read("gridengine/qstat/empty.xml")));
        for (String notAnAnswer : List.of("", "  \n")) {
            IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                    () -> QstatXml.parse(notAnAnswer));
            assertEquals("qstat -xml printed nothing; expected a job_info document", e.getMessage());
        }
        // What 8.1.9's qstat -xml prints (on standard error, exit code 1) with its qmaster down.
        IllegalArgumentException down = assertThrows(IllegalArgumentException.class,
                () -> QstatXml.parse(GOLDEN.read("gridengine/qstat/qmaster-down.txt")));
        assertTrue(down.getMessage().startsWith("qstat -xml's answer is not a well-formed XML document"),
                down.getMessage());
        assertTrue(down.getMessage().contains("starts 'error: unable to send message to qmaster"), down.getMessage());
    }

    @Test
    void malformedAnswersAreRefusedWithTheReason() {
        String mixed = GOLDEN.read("gridengine/qstat/mixed.xml");
        assertRefused(mixed.substring(0, mixed.length() / 2), "not a well-formed XML document");
        assertRefused("<?xml version='1.0'?>\n<queue_info></queue_info>", "is a <queue_info> document");
        assertRefused(mixed.replaceFirst("<JB_job_number>2</JB_job_number>", ""), "job_list 1 has no <JB_job_number>");
        assertRefused(mixed.replaceFirst("<slots>1</slots>", "<slots>one</slots>"), "job 2: slots 'one'");
        assertRefused(mixed.replaceFirst("<JB_job_number>2<", "<JB_job_number>2a<"), "JB_job_number '2a'");
        assertRefused(mixed.replaceFirst("2026-12-02T01:59:59", "12/02/2026 01:59:59"), "JAT_start_time");
    }

    @Test
    void documentTypesAndExternalEntitiesAreRefused() {
        String external = "<?xml version='1.0'?>\n<!DOCTYPE job_info [<!ENTITY x SYSTEM \"file:///etc/passwd\">]>\n"
                + "<job_info><queue_info><job_list state=\"running\"><JB_job_number>1</JB_job_number>"
                + "<JB_name>&x;</JB_name><JB_owner>u</JB_owner><state>r</state><slots>1</slots></job_list>"
                + "</queue_info><job_info></job_info></job_info>";
        assertRefused(external, "DOCTYPE");
        String billionLaughs = "<?xml version='1.0'?>\n<!DOCTYPE job_info [<!ENTITY a \"aaaa\">"
                + "<!ENTITY b \"&a;&a;&a;&a;\">]>\n<job_info>&b;</job_info>";
        assertRefused(billionLaughs, "DOCTYPE");
    }

    @Test
    void anUnknownStateIsKeptAsPrintedButNotGuessed() {
        String mixed = GOLDEN.read("gridengine/qstat/mixed.xml").replaceFirst("<state>r</state>",
                "<state>Nr</state>");
        QstatXml.Job job = QstatXml.parse(mixed).get(0);
        assertEquals("Nr", job.stateLetters());
        assertEquals(Optional.empty(), job.state());
    }

    private static void assertRefused(String xml, String expected) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> QstatXml.parse(xml));
        assertTrue(e.getMessage().contains(expected), e.getMessage());
    }

    private static String describe(QstatXml.Job job) {
        String state = job.state().map(s -> s.jobState() + "/" + s.kind() + (s.isEviction() ? "/eviction" : ""))
                .orElse("not a known state");
        return job.jobNumber() + job.tasks().map(t -> " tasks=" + t).orElse("") + " state=" + job.stateLetters()
                + " (" + state + ") name=" + job.name() + " owner=" + job.owner()
                + job.queueInstance().map(q -> " queue=" + q).orElse("") + " slots=" + job.slots()
                + job.startTime().map(t -> " started=" + t.format(ISO)).orElse("")
                + job.submissionTime().map(t -> " submitted=" + t.format(ISO)).orElse("");
    }
}
