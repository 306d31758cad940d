package dev.gantry.model;

import dev.gantry.api.Workload;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * One job a step runs: the step itself, or one combination of its matrix. {@code parameters} are the matrix values
 * of this combination (empty without a matrix); they are also set as environment variables of {@code workload}, so the
 * program can read them.
 */
public record StepInstance(String name, Map<String, String> parameters, Workload workload) {
    public StepInstance {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(workload, "workload");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(parameters, "parameters")));
    }
}
