package dev.gantry.backend.batch.fake.autoscale;

import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.CURRENT_DEDICATED;
import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.CURRENT_LOW_PRIORITY;
import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.TARGET_DEDICATED;
import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.TARGET_DEDICATED_ALIAS;
import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.TARGET_LOW_PRIORITY;
import static dev.gantry.backend.batch.fake.autoscale.ServiceVariables.TARGET_LOW_PRIORITY_ALIAS;

import java.time.Duration;
import java.time.Instant;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.stream.Collectors;

/** One evaluation of a parsed formula: the values assigned so far, and what the formula reads. */
final class FormulaRun {
    private final Samples samples;
    private final Instant now;
    /** User variables, sorted as Batch lists them in {@code results} (by name, {@code $} names first). */
    private final Map<String, Value> variables = new TreeMap<>();
    private final Map<String, Double> targets = new HashMap<>();
    private final Map<String, Position> targetAssignedAt = new HashMap<>();
    private String deallocation = ServiceVariables.DEFAULT_DEALLOCATION;

    FormulaRun(Samples samples, Instant now) {
        this.samples = samples;
        this.now = now;
    }

    Evaluation run(List<Statement> statements) {
        for (Statement statement : statements) {
            Value value = statement.value().evaluate(this);
            if (statement.name().equals(ServiceVariables.DEALLOCATION)) {
                deallocation = ((Value.Option) value).keyword();
            } else if (ServiceVariables.isTarget(statement.name())) {
                targets.put(statement.name(), ((Value.Number) value).value());
                targetAssignedAt.put(statement.name(), statement.at());
            } else {
                variables.put(statement.name(), value);
            }
        }
        int dedicated = nodes(TARGET_DEDICATED, TARGET_DEDICATED_ALIAS, samples.targetDedicated());
        int lowPriority = nodes(TARGET_LOW_PRIORITY, TARGET_LOW_PRIORITY_ALIAS, samples.targetLowPriority());
        return new Evaluation(dedicated, lowPriority, deallocation, results(dedicated, lowPriority));
    }

    Value variable(String name) {
        return variables.get(name);
    }

    double serviceNumber(String name) {
        return switch (name) {
            case CURRENT_DEDICATED -> samples.currentDedicated();
            case CURRENT_LOW_PRIORITY -> samples.currentLowPriority();
            case TARGET_DEDICATED, TARGET_DEDICATED_ALIAS -> target(name, name.equals(TARGET_DEDICATED)
                    ? TARGET_DEDICATED_ALIAS : TARGET_DEDICATED, samples.targetDedicated());
            default -> target(name, name.equals(TARGET_LOW_PRIORITY) ? TARGET_LOW_PRIORITY_ALIAS
                    : TARGET_LOW_PRIORITY, samples.targetLowPriority());
        };
    }

    /** A target as read: as this name was assigned, else as its other name was, else the pool's own. */
    private double target(String name, String otherName, int pools) {
        return targets.getOrDefault(name, targets.getOrDefault(otherName, (double) pools));
    }

    /** The full name wins over the alias when both are set, as Batch's docs say. */
    private int nodes(String name, String alias, int pools) {
        String set = targets.containsKey(name) ? name : alias;
        double value = targets.getOrDefault(set, (double) pools);
        if (Double.isNaN(value) || Double.isInfinite(value) || value < 0) {
            throw failure(targetAssignedAt.get(set), set + " is " + Value.format(value) + "; a target is a finite"
                    + " number of nodes, 0 or more (bound the expression with max(0, min(LIMIT, ...)))");
        }
        return (int) Math.min(Math.floor(value), Integer.MAX_VALUE);
    }

    private String results(int dedicated, int lowPriority) {
        String head = TARGET_DEDICATED + "=" + dedicated + ";" + TARGET_LOW_PRIORITY + "=" + lowPriority + ";"
                + ServiceVariables.DEALLOCATION + "=" + deallocation;
        String rest = variables.entrySet().stream().map(e -> e.getKey() + "=" + e.getValue())
                .collect(Collectors.joining(";"));
        return rest.isEmpty() ? head : head + ";" + rest;
    }

    /** The results as far as this run got: the pool's targets unless assigned, then the variables. */
    private String partialResults() {
        return results((int) Math.max(0, target(TARGET_DEDICATED, TARGET_DEDICATED_ALIAS, samples.targetDedicated())),
                (int) Math.max(0, target(TARGET_LOW_PRIORITY, TARGET_LOW_PRIORITY_ALIAS,
                        samples.targetLowPriority())));
    }

    FormulaException failure(Position at, String what) {
        return FormulaException.evaluationFailed(at, what, partialResults());
    }

    /** {@code GetSample(count)}, {@code GetSample(start [, percent])}, {@code GetSample(start, end [, percent])}. */
    Value getSample(Position at, String variable, List<Value> arguments) {
        if (arguments.get(0) instanceof Value.Number count) {
            if (count.value() < 1) {
                throw failure(at, "GetSample(" + Value.format(count.value()) + ") asks for no sample; the count"
                        + " is 1 or more");
            }
            return new Value.Vector(samples.last(variable, (int) count.value(), now));
        }
        Window window = window(at, arguments);
        List<Double> taken = samples.between(variable, now.minus(window.end()), now.minus(window.start()));
        if (arguments.get(arguments.size() - 1) instanceof Value.Number wanted) {
            double received = percent(taken.size(), window);
            if (received < wanted.value()) {
                throw FormulaException.insufficientData(at, variable, Value.format(wanted.value()),
                        Value.format(received), partialResults());
            }
        }
        return new Value.Vector(taken);
    }

    /** {@code GetSamplePercent(start [, end])}: the share of the samples the interval should hold that it does. */
    Value getSamplePercent(Position at, String variable, List<Value> arguments) {
        Window window = window(at, arguments);
        int taken = samples.between(variable, now.minus(window.end()), now.minus(window.start())).size();
        return new Value.Number(percent(taken, window));
    }

    /** How far back the interval starts and ends: one interval is (0, it]; two are the look-back start and end. */
    private record Window(Duration start, Duration end) {
    }

    private Window window(Position at, List<Value> arguments) {
        Duration first = ((Value.Interval) arguments.get(0)).duration();
        Duration second = arguments.size() > 1 && arguments.get(1) instanceof Value.Interval i ? i.duration() : null;
        Window window = second == null ? new Window(Duration.ZERO, first) : new Window(first, second);
        if (window.start().isNegative() || window.end().compareTo(window.start()) <= 0) {
            throw failure(at, "the sample interval " + window.start() + " to " + window.end() + " is empty; the"
                    + " look-back start must be 0 or more and less than its end");
        }
        return window;
    }

    private double percent(int taken, Window window) {
        double expected = (double) window.end().minus(window.start()).toNanos() / samples.period().toNanos();
        return Math.min(100, 100 * taken / Math.max(1, expected));
    }
}
