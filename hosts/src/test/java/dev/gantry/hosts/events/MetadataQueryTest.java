package dev.gantry.hosts.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.hosts.LocalHost;
import dev.gantry.hosts.events.MetadataQuery.Answer;
import dev.gantry.hosts.events.MetadataQuery.Request;
import java.net.URI;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class MetadataQueryTest {
    private FakeMetadataService imds;
    private final LocalHost host = LocalHost.detect();

    @BeforeEach
    void start() throws Exception {
        imds = new FakeMetadataService("spot-gpu-1");
    }

    @AfterEach
    void stop() {
        imds.close();
    }

    @Test
    void urlsAndBodiesTravelAsArgumentsNeverAsScriptText() {
        URI url = URI.create("http://127.0.0.1:1/metadata/scheduledevents?api-version=2020-07-01&x=$(reboot)");
        List<String> argv = MetadataQuery.argv(List.of(Request.get("events", url),
                new Request("ack", url, "{\"StartRequests\":[{\"EventId\":\"'; reboot\"}]}")));
        assertEquals(List.of("sh", "-c", MetadataQuery.SCRIPT, "sh", "events", url.toString(), "", "ack",
                url.toString(), "{\"StartRequests\":[{\"EventId\":\"'; reboot\"}]}"), argv);
        assertFalse(MetadataQuery.SCRIPT.contains("127.0.0.1"));
    }

    @Test
    void readsEachAnswerBetweenItsMarkers() {
        String output = "@@gantry-begin name\nspot-gpu-1\n@@gantry-end name 0\n"
                + "@@gantry-begin events\n{\"DocumentIncarnation\": 1,\n \"Events\": []}\n\n@@gantry-end events 0\n";
        Map<String, Answer> answers = MetadataQuery.answers(output);
        assertEquals(Map.of("name", new Answer(0, "spot-gpu-1"),
                "events", new Answer(0, "{\"DocumentIncarnation\": 1,\n \"Events\": []}")), answers);
    }

    @Test
    void anAnswerWithoutItsEndMarkerIsNoAnswer() {
        assertEquals(Map.of(), MetadataQuery.answers("@@gantry-begin events\n{\"Events\": []}\n"));
        assertEquals(Map.of(), MetadataQuery.answers("sh: not found\n"));
    }

    @Test
    void asksWithCurlAndTheMetadataHeader() {
        URI events = URI.create(imds.eventsUrl());
        Map<String, Answer> answers = MetadataQuery.answers(host.run(
                MetadataQuery.argv(List.of(Request.get("events", events))),
                MetadataQuery.timeout(List.of(Request.get("events", events)))));
        Answer answer = answers.get("events");
        assertTrue(answer.ok(), answer.toString());
        assertEquals("{\"DocumentIncarnation\": 1, \"Events\": []}", answer.text());
        assertEquals(List.of(new FakeMetadataService.Seen("GET", "/metadata/scheduledevents",
                "api-version=2020-07-01", true, "")), imds.seen());
    }

    @Test
    void postsTheAcknowledgementBody() {
        URI events = URI.create(imds.eventsUrl());
        String body = EvictionWatch.startRequest("C7061BAC-AFDC-4513-B24B-AA5F13A16123");
        Map<String, Answer> answers = MetadataQuery.answers(host.run(
                MetadataQuery.argv(List.of(new Request("ack", events, body))), MetadataQuery.timeout(List.of())));
        assertTrue(answers.get("ack").ok(), answers.toString());
        assertEquals(List.of(new FakeMetadataService.Seen("POST", "/metadata/scheduledevents",
                "api-version=2020-07-01", true, "{\"StartRequests\":[{\"EventId\":"
                + "\"C7061BAC-AFDC-4513-B24B-AA5F13A16123\"}]}")), imds.seen());
    }

    @Test
    void fallsBackToWgetWithTheSameHeader(@TempDir Path bin) throws Exception {
        Path wget = bin.resolve("wget");
        Files.writeString(wget, "#!/bin/sh\nexec " + LocalHostPaths.find("wget") + " \"$@\"\n");
        assertTrue(wget.toFile().setExecutable(true));
        URI events = URI.create(imds.eventsUrl());
        Answer answer = runWithPath(bin, List.of(Request.get("events", events))).get("events");
        assertTrue(answer.ok(), answer.toString());
        assertEquals("{\"DocumentIncarnation\": 1, \"Events\": []}", answer.text());
        assertEquals(1, imds.seen().size());
        assertTrue(imds.seen().get(0).metadataHeader(), "wget must send Metadata: true");
    }

    @Test
    void saysSoWhenTheHostHasNeitherCurlNorWget(@TempDir Path empty) {
        URI events = URI.create(imds.eventsUrl());
        Answer answer = runWithPath(empty, List.of(Request.get("events", events))).get("events");
        assertEquals(MetadataQuery.NO_CLIENT, answer.exit());
        assertEquals("neither curl nor wget is installed on local, so Gantry cannot read " + events
                + "; install curl there", answer.problem("local", events));
        assertEquals(List.of(), imds.seen());
    }

    @Test
    void aFailedRequestSaysWhatTheClientSaid() {
        URI closed = URI.create("http://127.0.0.1:9/metadata/scheduledevents?api-version=2020-07-01");
        Answer answer = MetadataQuery.answers(host.run(MetadataQuery.argv(List.of(Request.get("events", closed))),
                MetadataQuery.timeout(List.of(Request.get("events", closed))))).get("events");
        assertFalse(answer.ok());
        String problem = answer.problem("local", closed);
        assertTrue(problem.startsWith("could not read " + closed + " on local (exit "), problem);
    }

    /** The query with only {@code bin} on PATH, as on a host that has only what is there. */
    private Map<String, Answer> runWithPath(Path bin, List<Request> requests) {
        List<String> argv = new ArrayList<>(List.of("env", "PATH=" + bin, "/bin/sh"));
        argv.addAll(MetadataQuery.argv(requests).subList(1, MetadataQuery.argv(requests).size()));
        return MetadataQuery.answers(host.run(argv, MetadataQuery.timeout(requests)));
    }

    /** Where a program is on this machine's PATH; the test needs it, so its absence fails the test. */
    private static final class LocalHostPaths {
        static Path find(String program) {
            for (String dir : System.getenv("PATH").split(":")) {
                Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
                if (Files.isExecutable(candidate)) {
                    return candidate;
                }
            }
            throw new AssertionError(program + " is needed on PATH for this test");
        }
    }
}
