package dev.gantry.hosts.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.hosts.events.SpotSettings.Spot;
import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

class EvictionWatchTest {
    private static final String VM = "spot-gpu-1";
    private FakeMetadataService imds;
    private final CountingHost host = new CountingHost();

    @BeforeEach
    void start() throws Exception {
        imds = new FakeMetadataService(VM);
    }

    @AfterEach
    void stop() {
        imds.close();
    }

    private EvictionWatch watch(Spot spot, Optional<String> vmName, boolean acknowledge) {
        return new EvictionWatch(host, new SpotSettings(spot, URI.create(imds.eventsUrl()), Optional.empty(),
                acknowledge, vmName));
    }

    @Test
    void findsAPreemptEventForThisVmWithOneCommandPerCheck() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.of(VM), false);
        assertEquals(new EvictionWatch.Check(Optional.empty(), Optional.empty()), watch.check());
        assertEquals(1, host.runs());
        assertEquals(1, imds.eventQueries());
        String id = imds.injectPreempt(VM);
        EvictionWatch.Check check = watch.check();
        assertEquals(Optional.empty(), check.problem());
        assertEquals(id, check.preemption().orElseThrow().eventId());
        assertEquals(2, host.runs());
        assertEquals(2, imds.eventQueries());
        assertTrue(imds.seen().stream().allMatch(FakeMetadataService.Seen::metadataHeader));
    }

    @Test
    void ignoresOtherVmsAndOtherEventTypes() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.of(VM), false);
        imds.injectPreempt("spot-gpu-2");
        imds.inject("Reboot", VM);
        imds.inject("Freeze", VM);
        assertEquals(new EvictionWatch.Check(Optional.empty(), Optional.empty()), watch.check());
    }

    @Test
    void learnsTheVmNameOnceInTheSameCommandAsTheFirstEventQuery() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.empty(), false);
        watch.check();
        imds.injectPreempt(VM);
        assertTrue(watch.check().preemption().isPresent());
        assertEquals(2, host.runs());
        assertEquals(List.of("/metadata/instance/compute/name", "/metadata/scheduledevents",
                "/metadata/scheduledevents"), imds.seen().stream().map(FakeMetadataService.Seen::path).toList());
        assertEquals("api-version=2021-02-01&format=text", imds.seen().get(0).query());
    }

    @Test
    void autoAsksThePriorityOnceAndStopsWatchingARegularVm() {
        imds.priority("Regular");
        EvictionWatch watch = watch(Spot.AUTO, Optional.of(VM), false);
        assertTrue(watch.watching(), "auto watches until the host says what it is");
        watch.check();
        assertFalse(watch.spotHost());
        assertFalse(watch.watching());
        watch.check();
        assertEquals(1, host.runs(), "a regular VM is not asked again");
    }

    @Test
    void autoRecognisesASpotVm() {
        EvictionWatch watch = watch(Spot.AUTO, Optional.of(VM), false);
        imds.injectPreempt(VM);
        assertTrue(watch.check().preemption().isPresent());
        assertTrue(watch.spotHost());
        assertEquals(1, host.runs());
    }

    @Test
    void aHostThatIsNotSpotIsNeverAsked() {
        EvictionWatch watch = watch(Spot.FALSE, Optional.of(VM), false);
        assertFalse(watch.watching());
        assertEquals(new EvictionWatch.Check(Optional.empty(), Optional.empty()), watch.check());
        assertEquals(0, host.runs());
    }

    @Test
    void aBrokenDocumentIsAProblemToReport() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.of(VM), false);
        imds.serveDocument("<html>502 Bad Gateway</html>");
        EvictionWatch.Check check = watch.check();
        assertEquals(Optional.empty(), check.preemption());
        assertEquals("the Scheduled Events document is not JSON (malformed JSON at offset 0: Unexpected character "
                + "('<' (code 60)): expected a valid value (JSON String, Number, Array, Object or token 'null', 'true' "
                + "or 'false')): <html>502 Bad Gateway</html> (from " + imds.eventsUrl() + " on local)",
                check.problem().orElseThrow());
    }

    @Test
    void anUnreachableServiceIsAProblemToReport() {
        URI closed = URI.create("http://127.0.0.1:9/metadata/scheduledevents?api-version=2020-07-01");
        EvictionWatch watch = new EvictionWatch(host, new SpotSettings(Spot.TRUE, closed, Optional.empty(), false,
                Optional.of(VM)));
        String problem = watch.check().problem().orElseThrow();
        assertTrue(problem.startsWith("could not read " + closed + " on local (exit "), problem);
    }

    @Test
    void withoutANameItSaysHowToGiveOne() {
        URI closed = URI.create("http://127.0.0.1:9/metadata/scheduledevents?api-version=2020-07-01");
        EvictionWatch watch = new EvictionWatch(host, new SpotSettings(Spot.TRUE, closed, Optional.empty(), false,
                Optional.empty()));
        String problem = watch.check().problem().orElseThrow();
        assertTrue(problem.startsWith("could not read http://127.0.0.1:9/metadata/instance/compute/name?"), problem);
        assertTrue(problem.endsWith("; set vmName to the VM's name"), problem);
    }

    @Test
    void acknowledgesOnceWhenAskedTo() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.of(VM), true);
        String id = imds.injectPreempt(VM);
        ScheduledEvent event = watch.check().preemption().orElseThrow();
        assertEquals(Optional.empty(), watch.acknowledge(event));
        assertEquals(Optional.empty(), watch.acknowledge(event));
        List<FakeMetadataService.Seen> posts = imds.seen().stream().filter(s -> s.method().equals("POST")).toList();
        assertEquals(1, posts.size());
        assertEquals("{\"StartRequests\":[{\"EventId\":\"" + id + "\"}]}", posts.get(0).body());
        assertTrue(posts.get(0).metadataHeader());
    }

    @Test
    void doesNotAcknowledgeByDefault() {
        EvictionWatch watch = watch(Spot.TRUE, Optional.of(VM), false);
        imds.injectPreempt(VM);
        assertEquals(Optional.empty(), watch.acknowledge(watch.check().preemption().orElseThrow()));
        assertTrue(imds.seen().stream().noneMatch(s -> s.method().equals("POST")));
    }

    @Test
    void theFakeRefusesRequestsWithoutTheHeaderLikeImds() throws Exception {
        java.net.http.HttpResponse<String> response = java.net.http.HttpClient.newHttpClient().send(
                java.net.http.HttpRequest.newBuilder(URI.create(imds.eventsUrl())).build(),
                java.net.http.HttpResponse.BodyHandlers.ofString());
        assertEquals(400, response.statusCode());
        assertFalse(imds.seen().get(0).metadataHeader());
    }
}
