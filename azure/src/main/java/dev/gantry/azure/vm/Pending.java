package dev.gantry.azure.vm;

/** A long-running Resource Manager operation that was started; {@link #await()} waits for its result. */
@FunctionalInterface
public interface Pending<T> {
    /** Waits until the operation ends; a failed operation is raised as a {@code GantryException}. */
    T await();
}
