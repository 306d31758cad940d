package dev.gantry.hosts.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** Documents in the contract's shape against golden renderings of what the parser understood. */
class ScheduledEventsTest {
    private static final String VM = "spot-gpu-1";

    @ParameterizedTest
    @ValueSource(strings = {"empty", "preempt", "several", "malformed", "wrong-fields", "no-events", "proxy-page"})
    void parsesDocumentsAsTheGoldenFilesSay(String name) throws IOException {
        String rendered = render(ScheduledEvents.parse(resource("events/" + name + ".json")));
        String expected = resource("events/expected/" + name + ".txt");
        if (!expected.equals(rendered)) {
            // Beside the build output, for a diff against the golden file when the change is intended.
            Path actual = Path.of("target", "events-actual", name + ".txt");
            Files.createDirectories(actual.getParent());
            Files.writeString(actual, rendered);
        }
        assertEquals(expected, rendered);
    }

    @Test
    void anEmptyEventListHasNoPreemption() throws IOException {
        ScheduledEvents events = assertInstanceOf(ScheduledEvents.class,
                ScheduledEvents.parse(resource("events/empty.json")));
        assertEquals(1, events.documentIncarnation());
        assertEquals(List.of(), events.events());
        assertEquals(List.of(), events.preemptionsOf(VM));
    }

    @Test
    void onlyPreemptEventsNamingTheVmCount() throws IOException {
        ScheduledEvents events = assertInstanceOf(ScheduledEvents.class,
                ScheduledEvents.parse(resource("events/several.json")));
        assertEquals(5, events.events().size(), "every event is kept, whatever its type");
        // Reboot, Freeze and Terminate name spot-gpu-1 too; the other Preempt names spot-gpu-2.
        assertEquals(List.of("E5A2F0B1-3C4D-4E5F-8A9B-0C1D2E3F4A5B"),
                events.preemptionsOf(VM).stream().map(ScheduledEvent::eventId).toList());
        assertEquals(List.of("9B1C7D3E-2F4A-4E6B-8C0D-1A2B3C4D5E6F"),
                events.preemptionsOf("spot-gpu-2").stream().map(ScheduledEvent::eventId).toList());
        assertEquals(List.of(), events.preemptionsOf("spot-gpu-3"));
    }

    @Test
    void describesAnEventForTheJobsStatus() throws IOException {
        ScheduledEvents events = assertInstanceOf(ScheduledEvents.class,
                ScheduledEvents.parse(resource("events/preempt.json")));
        assertEquals("Azure Scheduled Event C7061BAC-AFDC-4513-B24B-AA5F13A16123 (Preempt, NotBefore Mon, 19 Sep "
                + "2016 18:29:47 GMT)", events.preemptionsOf(VM).get(0).describe());
    }

    @Test
    void aBrokenDocumentIsAProblemNotAnException() {
        for (String text : List.of("", "null", "[]", "{\"Events\": [", "{\"Events\": [{}]}")) {
            EventsReading reading = ScheduledEvents.parse(text);
            EventsReading.Unreadable unreadable = assertInstanceOf(EventsReading.Unreadable.class, reading, text);
            assertTrue(unreadable.reason().startsWith("the Scheduled Events document "), unreadable.reason());
        }
    }

    /** One line per fact, so a golden diff shows exactly what changed. */
    static String render(EventsReading reading) {
        List<String> lines = new ArrayList<>();
        if (reading instanceof EventsReading.Unreadable unreadable) {
            lines.add("unreadable: " + unreadable.reason());
        } else if (reading instanceof ScheduledEvents events) {
            lines.add("DocumentIncarnation " + events.documentIncarnation());
            for (ScheduledEvent e : events.events()) {
                lines.add(e.eventId() + " " + e.eventType() + " " + e.eventStatus() + " " + e.resourceType() + " "
                        + e.resources() + " NotBefore='" + e.notBefore() + "' source=" + e.eventSource()
                        + " duration=" + e.durationInSeconds() + " description='" + e.description() + "'");
            }
            for (String vm : List.of("spot-gpu-1", "spot-gpu-2")) {
                lines.add("preemptions of " + vm + ": "
                        + events.preemptionsOf(vm).stream().map(ScheduledEvent::describe).toList());
            }
        }
        return String.join("\n", lines) + "\n";
    }

    static String resource(String path) throws IOException {
        if (path.contains("/expected/") && ScheduledEventsTest.class.getClassLoader().getResource(path) == null) {
            return "(no golden file " + path + ")";
        }
        try (InputStream in = ScheduledEventsTest.class.getClassLoader().getResourceAsStream(path)) {
            if (in == null) {
                throw new IOException("missing test resource " + path);
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        }
    }
}
