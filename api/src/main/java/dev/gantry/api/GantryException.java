package dev.gantry.api;

import java.util.List;
import java.util.Objects;

/**
 * The one exception type Gantry throws on purpose. It carries a stable {@link ErrorCode} and, for validation
 * failures, every {@link Problem} found (never only the first).
 */
public class GantryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    /** The stable code scripts match on; serialized with the exception. */
    private final ErrorCode code;
    /** Every problem of a validation failure, unmodifiable; empty for other failures. */
    private final List<Problem> problems;

    /**
     * A failure without a cause or problems.
     *
     * @param code the stable code scripts match on
     * @param message what went wrong, the value given, what is allowed and the fix
     * @throws NullPointerException when {@code code} or {@code message} is null
     */
    public GantryException(ErrorCode code, String message) {
        this(code, message, List.of(), null);
    }

    /**
     * A failure caused by another exception (an I/O error, a remote service's answer).
     *
     * @param code the stable code scripts match on
     * @param message what went wrong and the fix
     * @param cause the underlying exception, or null
     * @throws NullPointerException when {@code code} or {@code message} is null
     */
    public GantryException(ErrorCode code, String message, Throwable cause) {
        this(code, message, List.of(), cause);
    }

    /**
     * A failure with every problem found.
     *
     * @param code the stable code scripts match on
     * @param message what went wrong; for a validation failure, the problems one per line
     * @param problems the individual problems, copied; empty for failures that are not validation
     * @param cause the underlying exception, or null
     * @throws NullPointerException when {@code code}, {@code message} or {@code problems} is null
     */
    public GantryException(ErrorCode code, String message, List<Problem> problems, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.problems = List.copyOf(problems);
    }

    /**
     * A validation failure listing every problem; the message is one problem per line.
     *
     * @param code the code, usually {@link ErrorCode#SPEC_INVALID} or {@link ErrorCode#CONFIG_INVALID}
     * @param problems every problem found, in the order found
     * @return the exception, to throw
     * @throws IllegalArgumentException when {@code problems} is empty
     */
    public static GantryException invalid(ErrorCode code, List<Problem> problems) {
        if (problems.isEmpty()) {
            throw new IllegalArgumentException("a validation failure needs at least one problem");
        }
        StringBuilder message = new StringBuilder();
        for (Problem problem : problems) {
            if (message.length() > 0) {
                message.append('\n');
            }
            message.append(problem);
        }
        return new GantryException(code, message.toString(), problems, null);
    }

    /**
     * The stable code of this failure.
     *
     * @return the code scripts match on; never null
     */
    public ErrorCode code() {
        return code;
    }

    /**
     * The individual problems of a validation failure.
     *
     * @return the problems, unmodifiable; empty for other failures
     */
    public List<Problem> problems() {
        return problems;
    }
}
