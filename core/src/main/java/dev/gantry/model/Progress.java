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

    /**
     * The operation is at a new step, or further in the same one.
     *
     * @param what the step, e.g. "creating 2 VMs"
     * @param detail how far it got or what it waits on; empty text when there is nothing to add
     */
    void step(String what, String detail);

    /**
     * The operation is at a new step, with nothing to add.
     *
     * @param what the step
     */
    default void step(String what) {
        step(what, "");
    }
}
