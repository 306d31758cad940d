package dev.gantry.hosts.events;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.hosts.json.internal.Json;
import java.util.ArrayList;
import java.util.List;

/**
 * The Scheduled Events document ({@code GET /metadata/scheduledevents}): its incarnation and events. Parsing is pure
 * and never throws for bad input: a document Gantry cannot read becomes {@link EventsReading.Unreadable} with the
 * field and what was wrong, so a status poll can say so instead of failing.
 *
 * @param documentIncarnation Azure's version of the document; it changes whenever the events change
 * @param events every event in the document, of every type
 */
public record ScheduledEvents(long documentIncarnation, List<ScheduledEvent> events)
        implements EventsReading {
    public ScheduledEvents {
        events = List.copyOf(events);
    }

    /** The Preempt events among the document's events that name the VM, in the document's order. */
    public List<ScheduledEvent> preemptionsOf(String vmName) {
        return events.stream().filter(ScheduledEvent::isPreempt).filter(e -> e.affects(vmName)).toList();
    }

    public static EventsReading parse(String json) {
        JsonNode document;
        try {
            document = Json.parse(json);
        } catch (Json.MalformedJson e) {
            return new EventsReading.Unreadable("the Scheduled Events document is not JSON (" + e.getMessage() + "): "
                    + excerpt(json));
        }
        if (!document.isObject()) {
            return new EventsReading.Unreadable("the Scheduled Events document must be a JSON object, got: "
                    + excerpt(json));
        }
        List<String> problems = new ArrayList<>();
        long incarnation = 0;
        JsonNode rawIncarnation = document.path("DocumentIncarnation");
        if (rawIncarnation.isNumber()) {
            incarnation = rawIncarnation.longValue();
        } else if (!absent(rawIncarnation)) {
            problems.add("DocumentIncarnation must be a number, got " + shown(rawIncarnation));
        }
        List<ScheduledEvent> events = new ArrayList<>();
        JsonNode rawEvents = document.path("Events");
        if (!rawEvents.isArray()) {
            problems.add("Events must be a list"
                    + (absent(rawEvents) ? ", but it is missing" : ", got " + shown(rawEvents)));
        } else {
            for (int i = 0; i < rawEvents.size(); i++) {
                event("Events[" + i + "]", rawEvents.get(i), problems, events);
            }
        }
        if (!problems.isEmpty()) {
            return new EventsReading.Unreadable("the Scheduled Events document does not follow the contract: "
                    + String.join("; ", problems));
        }
        return new ScheduledEvents(incarnation, events);
    }

    private static void event(String path, JsonNode event, List<String> problems, List<ScheduledEvent> events) {
        if (!event.isObject()) {
            problems.add(path + " must be an object, got " + shown(event));
            return;
        }
        int before = problems.size();
        String id = text(event, path, "EventId", true, problems);
        String type = text(event, path, "EventType", true, problems);
        List<String> resources = new ArrayList<>();
        JsonNode rawResources = event.path("Resources");
        if (rawResources.isArray()) {
            for (int i = 0; i < rawResources.size(); i++) {
                JsonNode name = rawResources.get(i);
                if (name.isTextual()) {
                    resources.add(name.textValue());
                } else {
                    problems.add(path + ".Resources[" + i + "] must be a VM name in quotes, got " + shown(name));
                }
            }
        } else if (!absent(rawResources)) {
            problems.add(path + ".Resources must be a list of VM names, got " + shown(rawResources));
        }
        long duration = -1;
        JsonNode rawDuration = event.path("DurationInSeconds");
        if (rawDuration.isNumber()) {
            duration = rawDuration.longValue();
        } else if (!absent(rawDuration)) {
            problems.add(path + ".DurationInSeconds must be a number, got " + shown(rawDuration));
        }
        String resourceType = text(event, path, "ResourceType", false, problems);
        String status = text(event, path, "EventStatus", false, problems);
        String notBefore = text(event, path, "NotBefore", false, problems);
        String description = text(event, path, "Description", false, problems);
        String source = text(event, path, "EventSource", false, problems);
        if (problems.size() == before) {
            events.add(new ScheduledEvent(id, type, resourceType, resources, status, notBefore, description, source,
                    duration));
        }
    }

    private static String text(JsonNode event, String path, String field, boolean required,
                               List<String> problems) {
        JsonNode value = event.path(field);
        if (value.isTextual() && !(required && value.textValue().isBlank())) {
            return value.textValue();
        }
        if (absent(value) && !required) {
            return "";
        }
        problems.add(path + "." + field
                + (absent(value) ? " is missing" : " must be non-empty text, got " + shown(value)));
        return "";
    }

    /** A member that is not there, or is {@code null}: the contract treats both as left out. */
    private static boolean absent(JsonNode value) {
        return value.isMissingNode() || value.isNull();
    }

    /** A JSON value as the document had it: text in quotes, whole numbers without a fraction. */
    private static String shown(JsonNode value) {
        if (value.isTextual()) {
            return "\"" + value.textValue() + "\"";
        }
        if (value.isNumber() && value.canConvertToExactIntegral()) {
            return value.bigIntegerValue().toString();
        }
        return value.toString();
    }

    /** The start of a document for an error message: enough to recognise an HTML error page or a proxy's reply. */
    static String excerpt(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "(empty)" : flat.length() <= 120 ? flat : flat.substring(0, 120) + "...";
    }
}
