package dev.gantry.hosts.events;

/** What reading one Scheduled Events document gave: the document, or why it could not be read. */
public sealed interface EventsReading permits ScheduledEvents, EventsReading.Unreadable {
    /** A document that could not be read: what was wrong, naming the field. */
    record Unreadable(String reason) implements EventsReading {
    }
}
