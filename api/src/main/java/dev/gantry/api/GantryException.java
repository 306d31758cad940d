package dev.gantry.api;

import java.util.List;
import java.util.Objects;

/**
 * The one exception type Gantry throws on purpose. It carries a stable {@link ErrorCode} and, for validation
 * failures, every {@link Problem} found (never only the first).
 */
public class GantryException extends RuntimeException {
    private static final long serialVersionUID = 1L;

    private final ErrorCode code;
    private final List<Problem> problems;

    public GantryException(ErrorCode code, String message) {
        this(code, message, List.of(), null);
    }

    public GantryException(ErrorCode code, String message, Throwable cause) {
        this(code, message, List.of(), cause);
    }

    public GantryException(ErrorCode code, String message, List<Problem> problems, Throwable cause) {
        super(Objects.requireNonNull(message, "message"), cause);
        this.code = Objects.requireNonNull(code, "code");
        this.problems = List.copyOf(problems);
    }

    /** A validation failure listing every problem; the message is one problem per line. */
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

    public ErrorCode code() {
        return code;
    }

    /** The individual problems of a validation failure; empty for other failures. */
    public List<Problem> problems() {
        return problems;
    }
}
