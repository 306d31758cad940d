package dev.gantry.backend.manual.internal.events;

import dev.gantry.backend.manual.internal.probe.JsonReader;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

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
        Object root;
        try {
            root = JsonReader.parse(json);
        } catch (JsonReader.MalformedJson e) {
            return new EventsReading.Unreadable("the Scheduled Events document is not JSON (" + e.getMessage() + "): "
                    + excerpt(json));
        }
        if (!(root instanceof Map<?, ?> document)) {
            return new EventsReading.Unreadable("the Scheduled Events document must be a JSON object, got: "
                    + excerpt(json));
        }
        List<String> problems = new ArrayList<>();
        long incarnation = 0;
        Object rawIncarnation = document.get("DocumentIncarnation");
        if (rawIncarnation instanceof Double number) {
            incarnation = number.longValue();
        } else if (rawIncarnation != null) {
            problems.add("DocumentIncarnation must be a number, got " + shown(rawIncarnation));
        }
        List<ScheduledEvent> events = new ArrayList<>();
        Object rawEvents = document.get("Events");
        if (!(rawEvents instanceof List<?> list)) {
            problems.add("Events must be a list"
                    + (rawEvents == null ? ", but it is missing" : ", got " + shown(rawEvents)));
        } else {
            for (int i = 0; i < list.size(); i++) {
                event("Events[" + i + "]", list.get(i), problems, events);
            }
        }
        if (!problems.isEmpty()) {
            return new EventsReading.Unreadable("the Scheduled Events document does not follow the contract: "
                    + String.join("; ", problems));
        }
        return new ScheduledEvents(incarnation, events);
    }

    private static void event(String path, Object raw, List<String> problems, List<ScheduledEvent> events) {
        if (!(raw instanceof Map<?, ?> event)) {
            problems.add(path + " must be an object, got " + shown(raw));
            return;
        }
        int before = problems.size();
        String id = text(event, path, "EventId", true, problems);
        String type = text(event, path, "EventType", true, problems);
        List<String> resources = new ArrayList<>();
        Object rawResources = event.get("Resources");
        if (rawResources instanceof List<?> list) {
            for (int i = 0; i < list.size(); i++) {
                if (list.get(i) instanceof String name) {
                    resources.add(name);
                } else {
                    problems.add(path + ".Resources[" + i + "] must be a VM name in quotes, got " + shown(list.get(i)));
                }
            }
        } else if (rawResources != null) {
            problems.add(path + ".Resources must be a list of VM names, got " + shown(rawResources));
        }
        long duration = -1;
        Object rawDuration = event.get("DurationInSeconds");
        if (rawDuration instanceof Double number) {
            duration = number.longValue();
        } else if (rawDuration != null) {
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

    private static String text(Map<?, ?> event, String path, String field, boolean required, List<String> problems) {
        Object value = event.get(field);
        if (value instanceof String s && !(required && s.isBlank())) {
            return s;
        }
        if (value == null && !required) {
            return "";
        }
        problems.add(path + "." + field
                + (value == null ? " is missing" : " must be non-empty text, got " + shown(value)));
        return "";
    }

    /** A JSON value as the document had it: text in quotes, whole numbers without a fraction. */
    private static String shown(Object value) {
        if (value instanceof String s) {
            return "\"" + s + "\"";
        }
        if (value instanceof Double d && d == Math.rint(d) && !d.isInfinite()) {
            return Long.toString(d.longValue());
        }
        return String.valueOf(value);
    }

    /** The start of a document for an error message: enough to recognise an HTML error page or a proxy's reply. */
    static String excerpt(String text) {
        String flat = text.strip().replaceAll("\\s+", " ");
        return flat.isEmpty() ? "(empty)" : flat.length() <= 120 ? flat : flat.substring(0, 120) + "...";
    }
}
