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
 *
 * @param name the instance's name: the step's, or {@code STEP-v1-v2} for a matrix combination
 * @param parameters the matrix values by name, in the matrix's order; empty without a matrix
 * @param workload the workload this instance runs, its environment holding the parameters
 */
public record StepInstance(String name, Map<String, String> parameters, Workload workload) {
    /**
     * Checks that every component is given and copies the parameters.
     *
     * @param name the name
     * @param parameters the parameters, copied in order
     * @param workload the workload
     * @throws NullPointerException when a component is null
     */
    public StepInstance {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(workload, "workload");
        parameters = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(parameters, "parameters")));
    }
}
