package dev.gantry.hosts.probe;

import java.util.List;
import java.util.Objects;

/** What a sub-parser understood, and the problems it found on the way. */
public record Parsed<T>(T value, List<ProbeProblem> problems) {
    public Parsed {
        Objects.requireNonNull(value, "value");
        problems = List.copyOf(problems);
    }

    public static <T> Parsed<T> of(T value) {
        return new Parsed<>(value, List.of());
    }
}
