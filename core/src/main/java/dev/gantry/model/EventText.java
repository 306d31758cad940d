package dev.gantry.model;

/** The rules every stored event follows, job's or run's: its kind one lower-case word, its detail one line. */
final class EventText {
    private EventText() {
    }

    /** The kind, checked: one lower-case word, with hyphens. */
    public static String kind(String kind) {
        if (!kind.matches("[a-z][a-z-]*")) {
            throw new IllegalArgumentException("an event's kind is one lower-case word: '" + kind + "'");
        }
        return kind;
    }

    /** The detail on one line, so that a history prints and greps as lines. */
    public static String detail(String detail) {
        return detail.replace('\n', ' ').replace('\r', ' ');
    }

    /** The sequence, checked: 0 for an event not stored yet (the store numbers it), else its place from 1. */
    public static long sequence(long sequence) {
        if (sequence < 0) {
            throw new IllegalArgumentException("an event's sequence is 0 (not stored yet) or more: " + sequence);
        }
        return sequence;
    }
}
