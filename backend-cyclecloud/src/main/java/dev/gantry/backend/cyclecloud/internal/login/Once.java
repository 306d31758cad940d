package dev.gantry.backend.cyclecloud.internal.login;

import java.util.Objects;
import java.util.function.Supplier;

/**
 * A value asked of the cluster once, on first use, and kept for the backend's life (the cluster's facts, CycleCloud's
 * node arrays). A failed ask keeps nothing: the next use asks again.
 */
public final class Once<T> implements Supplier<T> {
    private final Supplier<T> ask;
    private volatile T value;

    public Once(Supplier<T> ask) {
        this.ask = Objects.requireNonNull(ask, "ask");
    }

    @Override
    public T get() {
        T known = value;
        if (known == null) {
            synchronized (this) {
                if (value == null) {
                    value = Objects.requireNonNull(ask.get(), "the answer");
                }
                known = value;
            }
        }
        return known;
    }
}
