package dev.gantry.api.backend;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.NearMiss;
import dev.gantry.api.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * Collects every wrong setting of a backend instead of stopping at the first, so that a user fixes a configuration
 * in one round. Bind each value through {@link #read}, which keeps the {@link BackendConfig} getter's problem and
 * returns a fallback, then call {@link #throwIfAny()} before using what was bound:
 *
 * <pre>{@code
 * ConfigProblems problems = new ConfigProblems(config);
 * int port = problems.read(() -> config.getInt("port", 22, 1, 65535), 22);
 * Duration timeout = problems.read(() -> config.getDuration("connectTimeout", Duration.ofSeconds(10)), null);
 * problems.throwIfAny();
 * }</pre>
 */
public final class ConfigProblems {
    private final BackendConfig config;
    private final List<Problem> problems = new ArrayList<>();

    /**
     * Starts with no problems.
     *
     * @param config the settings being bound, which locate each problem
     * @throws NullPointerException when {@code config} is null
     */
    public ConfigProblems(BackendConfig config) {
        this.config = Objects.requireNonNull(config, "config");
    }

    /**
     * The getter's value, or {@code fallback} after keeping its CONFIG_INVALID problems.
     *
     * @param <T> the setting's type
     * @param getter a call of one of {@link BackendConfig}'s getters
     * @param fallback what to bind when the getter fails; it is never used, since {@link #throwIfAny()} throws
     * @return the getter's value, or {@code fallback}
     * @throws GantryException any failure of the getter other than {@link ErrorCode#CONFIG_INVALID}, at once
     */
    public <T> T read(Supplier<T> getter, T fallback) {
        try {
            return getter.get();
        } catch (GantryException e) {
            if (e.code() != ErrorCode.CONFIG_INVALID) {
                throw e;
            }
            if (e.problems().isEmpty()) {
                problems.add(Problem.of("", e.getMessage()));
            } else {
                problems.addAll(e.problems());
            }
            return fallback;
        }
    }

    /**
     * Keeps a problem for every given key that is none of {@code accepted}, each with the accepted key it most
     * likely meant, or, when none is near, where the accepted keys are listed: never the whole list in the message.
     *
     * @param accepted the keys the backend declares
     */
    public void unknownKeys(List<ConfigKey> accepted) {
        List<String> names = accepted.stream().map(ConfigKey::name).toList();
        for (String unknown : config.unknownKeys(accepted)) {
            String pattern = unknown.replaceAll("\\[\\d+]", "[*]");
            String hint = names.isEmpty() ? config.backend() + " accepts no settings"
                    : NearMiss.closest(pattern, names).map(key -> "did you mean '" + key + "'?")
                    .orElse("'gantry backends --output json' lists the keys " + config.backend() + " accepts");
            problems.add(config.problem(unknown, "unknown setting; " + hint));
        }
    }

    /**
     * Keeps a problem found by the backend's own checks (two settings that contradict each other, ...).
     *
     * @param key the key the problem is about, relative to the backend's section
     * @param message what is wrong and the fix
     */
    public void add(String key, String message) {
        problems.add(config.problem(key, message));
    }

    /**
     * Keeps a problem a shared binding found (it names its key itself, e.g. the SSH login settings).
     *
     * @param problem the problem, kept as it is
     * @throws NullPointerException when {@code problem} is null
     */
    public void add(Problem problem) {
        problems.add(java.util.Objects.requireNonNull(problem, "problem"));
    }

    /** {@return whether no problem has been kept} */
    public boolean isEmpty() {
        return problems.isEmpty();
    }

    /** {@return the problems kept so far, in the order found; a copy} */
    public List<Problem> problems() {
        return List.copyOf(problems);
    }

    /** Throws CONFIG_INVALID with every problem kept, one per line, in the order they were found. */
    public void throwIfAny() {
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }
}
