package dev.gantry.model;

/**
 * What a long operation of the facade is doing now, for a person watching it ({@code gantry vm up} and
 * {@code gantry catalog refresh} draw it as a progress line with the elapsed time). Each call replaces the previous
 * one: {@code what} names the step ("creating 2 VMs", "waiting for SSH and doctor"), {@code detail} how far it got
 * or what it waits on ("12 pages", "vm-1: connection refused"), empty when there is nothing to add. Called on the
 * operation's own thread; an implementation must return quickly and must not throw.
 */
@FunctionalInterface
public interface Progress {
    /** Shows nothing: for callers that have no one watching. */
    Progress NONE = (what, detail) -> { };

    void step(String what, String detail);

    default void step(String what) {
        step(what, "");
    }
}
