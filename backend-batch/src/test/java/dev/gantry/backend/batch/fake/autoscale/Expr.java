package dev.gantry.backend.batch.fake.autoscale;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** An expression of the subset, typed when parsed; each evaluates itself in a {@link FormulaRun}. */
sealed interface Expr {
    Position at();

    ValueType type();

    Value evaluate(FormulaRun run);

    /** A value written in the formula: a number, a {@code TimeInterval_*} constant or a deallocation keyword. */
    record Constant(Position at, Value value, ValueType type) implements Expr {
        static Constant number(Position at, double value) {
            return new Constant(at, new Value.Number(value), ValueType.DOUBLE);
        }

        static Constant interval(Position at, Duration duration) {
            return new Constant(at, new Value.Interval(duration), ValueType.INTERVAL);
        }

        static Constant deallocation(Position at, String keyword) {
            return new Constant(at, new Value.Option(keyword), ValueType.DEALLOCATION_OPTION);
        }

        @Override
        public Value evaluate(FormulaRun run) {
            return value;
        }
    }

    /** A user variable, assigned by an earlier statement. */
    record Variable(Position at, String name, ValueType type) implements Expr {
        @Override
        public Value evaluate(FormulaRun run) {
            return run.variable(name);
        }
    }

    /** A service-defined number: a current node count, or a target (as assigned so far, else the pool's). */
    record ServiceNumber(Position at, String name) implements Expr {
        @Override
        public ValueType type() {
            return ValueType.DOUBLE;
        }

        @Override
        public Value evaluate(FormulaRun run) {
            return new Value.Number(run.serviceNumber(name));
        }
    }

    record Unary(Position at, String operator, Expr operand, ValueType type) implements Expr {
        @Override
        public Value evaluate(FormulaRun run) {
            return Operators.unary(operator, operand.evaluate(run));
        }
    }

    record Binary(Position at, String operator, Expr left, Expr right, ValueType type) implements Expr {
        @Override
        public Value evaluate(FormulaRun run) {
            if (operator.equals("&&") || operator.equals("||")) {
                boolean leftTrue = Operators.isTrue(left.evaluate(run));
                if (operator.equals("&&") != leftTrue) {
                    return Operators.truth(leftTrue);
                }
                return Operators.truth(Operators.isTrue(right.evaluate(run)));
            }
            return Operators.binary(run, at, operator, left.evaluate(run), right.evaluate(run));
        }
    }

    /** {@code condition ? then : otherwise}: nonzero is true, and only the branch taken is evaluated. */
    record Conditional(Position at, Expr condition, Expr then, Expr otherwise, ValueType type) implements Expr {
        @Override
        public Value evaluate(FormulaRun run) {
            return Operators.isTrue(condition.evaluate(run)) ? then.evaluate(run) : otherwise.evaluate(run);
        }
    }

    /** {@code min}, {@code max} or {@code avg} of a list of doubles and vectors, flattened into one vector. */
    record Aggregate(Position at, String function, List<Expr> arguments) implements Expr {
        @Override
        public ValueType type() {
            return ValueType.DOUBLE;
        }

        @Override
        public Value evaluate(FormulaRun run) {
            List<Double> all = new ArrayList<>();
            for (Expr argument : arguments) {
                Value value = argument.evaluate(run);
                if (value instanceof Value.Vector vector) {
                    all.addAll(vector.values());
                } else {
                    all.add(((Value.Number) value).value());
                }
            }
            if (all.isEmpty()) {
                throw run.failure(at, function + "() has no value to work on: every vector given to it is empty"
                        + " (no sample in the interval asked; guard it with GetSamplePercent)");
            }
            double result = switch (function) {
                case "min" -> all.stream().mapToDouble(Double::doubleValue).min().orElseThrow();
                case "max" -> all.stream().mapToDouble(Double::doubleValue).max().orElseThrow();
                default -> all.stream().mapToDouble(Double::doubleValue).average().orElseThrow();
            };
            return new Value.Number(result);
        }
    }

    /** {@code $Metric.GetSample(...)} or {@code $Metric.GetSamplePercent(...)}. */
    record SampleCall(Position at, String variable, String method, List<Expr> arguments, ValueType type)
            implements Expr {
        @Override
        public Value evaluate(FormulaRun run) {
            List<Value> values = arguments.stream().map(a -> a.evaluate(run)).toList();
            return method.equals(ServiceVariables.GET_SAMPLE) ? run.getSample(at, variable, values)
                    : run.getSamplePercent(at, variable, values);
        }
    }
}
