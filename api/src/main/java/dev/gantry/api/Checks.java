package dev.gantry.api;

import java.util.ArrayList;
import java.util.List;

/** Collects the problems of one record's constructor so that every problem is reported, not only the first. */
final class Checks {
    private final List<Problem> problems = new ArrayList<>();

    void require(boolean ok, String path, String message) {
        if (!ok) {
            problems.add(Problem.of(path, message));
        }
    }

    void add(Problem problem) {
        problems.add(problem);
    }

    /** Runs a nested record's validation and keeps its problems under the given field. */
    void nested(String field, Runnable construction) {
        try {
            construction.run();
        } catch (GantryException e) {
            if (e.problems().isEmpty()) {
                throw e;
            }
            e.problems().forEach(p -> problems.add(p.under(field)));
        }
    }

    /** Runs a construction, keeping its problems as they are; empty when it found any. */
    <T> java.util.Optional<T> attempt(java.util.function.Supplier<T> construction) {
        try {
            return java.util.Optional.ofNullable(construction.get());
        } catch (GantryException e) {
            if (e.problems().isEmpty()) {
                throw e;
            }
            problems.addAll(e.problems());
            return java.util.Optional.empty();
        }
    }

    List<Problem> problems() {
        return List.copyOf(problems);
    }

    boolean isEmpty() {
        return problems.isEmpty();
    }

    void throwIfAny() {
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.SPEC_INVALID, problems);
        }
    }
}
