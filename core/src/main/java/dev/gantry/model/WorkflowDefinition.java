package dev.gantry.model;

import java.util.ArrayList;
import java.util.ArrayDeque;
import java.util.Collections;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * A workflow: steps that form a directed acyclic graph through {@code dependsOn}. The constructor rejects what the
 * spec reader already reports with locations (duplicate names, unknown dependencies or cleanup steps, cycles), so a
 * definition built in code is as safe to run as one read from YAML.
 *
 * <p>{@code parallelism} is the most steps running at once; 0 means no limit, because the backends already queue
 * jobs beyond their quota and a limit is only needed to spread cost.
 *
 * @param name the workflow's name
 * @param labels its labels, in the order given
 * @param steps its steps, in the order written
 * @param parallelism the most steps running at once; 0 for no limit
 * @param budget what the whole run may cost ({@code spec.budget}: {@code maxTotal} only, over every step and
 *     attempt); empty for no ceiling. Each step's workload may carry its own budget besides.
 */
public record WorkflowDefinition(String name, Map<String, String> labels, List<StepDefinition> steps,
        int parallelism, Optional<dev.gantry.api.Budget> budget) {

    /**
     * Checks the graph of steps and copies the labels and steps.
     *
     * @param name the name
     * @param labels the labels, copied
     * @param steps the steps, copied; at least one
     * @param parallelism 0 or more
     * @param budget the run's budget, or empty
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when there are no steps, {@code parallelism} is negative, a step name repeats,
     *     a dependency or cleanup step is unknown, the dependencies form a cycle (which the message shows), or the
     *     budget has a {@code maxPerHour} (an hourly ceiling belongs to each step's workload)
     */
    public WorkflowDefinition {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(budget, "budget");
        if (budget.isPresent() && budget.get().maxPerHour().isPresent()) {
            throw new IllegalArgumentException("a workflow's budget holds maxTotal only; put maxPerHour on each step's "
                    + "workload");
        }
        labels = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(labels, "labels")));
        steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
        if (steps.isEmpty()) {
            throw new IllegalArgumentException("workflow " + name + " has no steps");
        }
        if (parallelism < 0) {
            throw new IllegalArgumentException("parallelism must be 0 (no limit) or more, got " + parallelism);
        }
        Map<String, List<String>> graph = new LinkedHashMap<>();
        for (StepDefinition step : steps) {
            if (graph.put(step.name(), step.dependsOn()) != null) {
                throw new IllegalArgumentException("step " + step.name() + " is defined twice");
            }
        }
        for (StepDefinition step : steps) {
            for (String dependency : step.dependsOn()) {
                if (!graph.containsKey(dependency)) {
                    throw new IllegalArgumentException("step " + step.name() + " depends on unknown step "
                            + dependency);
                }
            }
            step.onFailure().cleanupStep().filter(c -> !graph.containsKey(c)).ifPresent(c -> {
                throw new IllegalArgumentException("step " + step.name() + " names unknown cleanup step " + c);
            });
        }
        findCycle(graph).ifPresent(cycle -> {
            throw new IllegalArgumentException("dependency cycle: " + String.join(" -> ", cycle));
        });
    }

    /**
     * A workflow without a budget of its own.
     *
     * @param name the name
     * @param labels the labels, copied
     * @param steps the steps, copied; at least one
     * @param parallelism 0 or more
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException as the canonical constructor does
     */
    public WorkflowDefinition(String name, Map<String, String> labels, List<StepDefinition> steps, int parallelism) {
        this(name, labels, steps, parallelism, Optional.empty());
    }

    /**
     * One workload as a workflow of one step, named as the workload, so that the run engine drives it: how a workload
     * with a {@code budget.maxTotal} runs, since the engine is what holds a run to its budget. The workload's
     * {@code maxTotal} is also the run's, so that reaching it ends the run FAILED with {@code budget reached: ...}.
     *
     * @param workload the workload
     * @return a workflow of the workload's name and labels with one step, which runs it
     */
    public static WorkflowDefinition ofWorkload(dev.gantry.api.Workload workload) {
        Optional<dev.gantry.api.Budget> total = workload.budget().filter(b -> b.maxTotal().isPresent())
                .map(b -> dev.gantry.api.Budget.total(b.maxTotal().getAsDouble()));
        return new WorkflowDefinition(workload.name(), workload.labels(),
                List.of(StepDefinition.of(workload.name(), workload, List.of())), 0, total);
    }

    /**
     * The step of that name.
     *
     * @param stepName the step's name
     * @return the step; empty when there is none
     */
    public Optional<StepDefinition> step(String stepName) {
        return steps.stream().filter(s -> s.name().equals(stepName)).findFirst();
    }

    /**
     * The steps in an order where every step comes after the steps it depends on. Ties keep the order written, so
     * the order is stable from run to run (Kahn's algorithm, always taking the first ready step).
     *
     * @return every step, dependencies first
     */
    public List<StepDefinition> topologicalOrder() {
        Map<String, Integer> waiting = new HashMap<>();
        steps.forEach(s -> waiting.put(s.name(), new HashSet<>(s.dependsOn()).size()));
        List<StepDefinition> order = new ArrayList<>();
        Set<String> done = new HashSet<>();
        while (order.size() < steps.size()) {
            StepDefinition next = steps.stream().filter(s -> !done.contains(s.name()) && waiting.get(s.name()) == 0)
                    .findFirst().orElseThrow(() -> new IllegalStateException("cycle")); // excluded by the constructor
            order.add(next);
            done.add(next.name());
            dependentsOf(next.name()).forEach(d -> waiting.merge(d.name(), -1, Integer::sum));
        }
        return order;
    }

    /**
     * The steps that name {@code stepName} in their {@code dependsOn} (direct dependents only), in written order.
     *
     * @param stepName the step depended on
     * @return its direct dependents; empty when none
     */
    public List<StepDefinition> dependentsOf(String stepName) {
        return steps.stream().filter(s -> s.dependsOn().contains(stepName)).toList();
    }

    /**
     * A dependency cycle of {@code graph} (step name to the names it depends on) as a path that starts and ends at the
     * same step, e.g. {@code [a, b, a]}; empty when there is none. Names missing from the graph are ignored. The first
     * cycle found from the steps in map order is returned, so the answer is stable.
     *
     * @param graph each step's name to the names it depends on
     * @return the cycle as a path, or empty
     */
    public static Optional<List<String>> findCycle(Map<String, List<String>> graph) {
        Set<String> finished = new HashSet<>();
        for (String start : graph.keySet()) {
            Optional<List<String>> cycle = visit(start, graph, new ArrayDeque<>(), new HashSet<>(), finished);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        return Optional.empty();
    }

    private static Optional<List<String>> visit(String node, Map<String, List<String>> graph, Deque<String> path,
            Set<String> onPath, Set<String> finished) {
        if (onPath.contains(node)) {
            List<String> cycle = new ArrayList<>();
            boolean in = false;
            for (java.util.Iterator<String> it = path.descendingIterator(); it.hasNext();) {
                String n = it.next();
                in |= n.equals(node);
                if (in) {
                    cycle.add(n);
                }
            }
            cycle.add(node);
            return Optional.of(cycle);
        }
        if (finished.contains(node) || !graph.containsKey(node)) {
            return Optional.empty();
        }
        path.push(node);
        onPath.add(node);
        for (String next : graph.get(node)) {
            Optional<List<String>> cycle = visit(next, graph, path, onPath, finished);
            if (cycle.isPresent()) {
                return cycle;
            }
        }
        path.pop();
        onPath.remove(node);
        finished.add(node);
        return Optional.empty();
    }
}
