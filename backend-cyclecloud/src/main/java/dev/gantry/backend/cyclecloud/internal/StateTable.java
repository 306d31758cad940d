package dev.gantry.backend.cyclecloud.internal;

import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/**
 * A scheduler's status table: every state it prints, by each code it prints it with. A code the table does not know
 * (a newer release's) finds nothing, which its caller reports as UNKNOWN, never a guess.
 *
 * @param <S> the scheduler's states
 */
public final class StateTable<S extends Enum<S> & TabledState> {
    private final Map<String, S> byCode;

    private StateTable(Map<String, S> byCode) {
        this.byCode = Map.copyOf(byCode);
    }

    /**
     * The table of every constant of {@code states}, found by each of its {@code codes} (Slurm's long name and
     * compact code, PBS's letter); a code two states share is a mistake in the table.
     */
    public static <S extends Enum<S> & TabledState> StateTable<S> of(Class<S> states, Function<S, List<String>> codes) {
        Map<String, S> byCode = new HashMap<>();
        for (S state : states.getEnumConstants()) {
            for (String code : codes.apply(state)) {
                S before = byCode.put(code, state);
                if (before != null) {
                    throw new IllegalStateException(states.getSimpleName() + " code '" + code + "' names both "
                            + before + " and " + state);
                }
            }
        }
        return new StateTable<>(byCode);
    }

    /** The state printed as {@code code}, exactly; empty for a code the table does not know. */
    public Optional<S> find(String code) {
        return Optional.ofNullable(byCode.get(code));
    }
}
