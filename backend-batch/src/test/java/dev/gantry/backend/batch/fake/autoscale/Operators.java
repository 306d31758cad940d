package dev.gantry.backend.batch.fake.autoscale;

import static dev.gantry.backend.batch.fake.autoscale.ValueType.DOUBLE;
import static dev.gantry.backend.batch.fake.autoscale.ValueType.INTERVAL;
import static dev.gantry.backend.batch.fake.autoscale.ValueType.VECTOR;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.function.DoubleBinaryOperator;

/**
 * The operations table of Batch's docs, less timestamps and strings: which operand types each operator takes (checked
 * when the formula is parsed) and what it computes.
 */
final class Operators {
    static final Set<String> ARITHMETIC = Set.of("+", "-", "*", "/");
    static final Set<String> COMPARISON = Set.of("<", "<=", "==", ">=", ">", "!=");
    static final Set<String> LOGICAL = Set.of("&&", "||");
    private static final String ALLOWED = "the subset has double OP double and doubleVec OP double or doubleVec"
            + " (+ - * /), double * timeinterval, timeinterval * or / double, timeinterval + or - timeinterval,"
            + " comparisons of two doubles or two timeintervals, && and || of doubles, - and ! of a double and - of a"
            + " timeinterval";

    private Operators() {
    }

    /** The result type, or a syntax error naming the operand types and what the subset allows. */
    static ValueType binaryType(Position at, String operator, ValueType left, ValueType right) {
        ValueType result = null;
        if (ARITHMETIC.contains(operator)) {
            result = arithmeticType(operator, left, right);
        } else if (COMPARISON.contains(operator)) {
            result = left == right && (left == DOUBLE || left == INTERVAL) ? DOUBLE : null;
        } else if (LOGICAL.contains(operator)) {
            result = left == DOUBLE && right == DOUBLE ? DOUBLE : null;
        }
        if (result == null) {
            throw FormulaException.syntax(at, "operator '" + operator + "' is not defined for " + left + " and "
                    + right + "; " + ALLOWED);
        }
        return result;
    }

    private static ValueType arithmeticType(String operator, ValueType left, ValueType right) {
        if (left == DOUBLE && right == DOUBLE) {
            return DOUBLE;
        }
        if (left == VECTOR && (right == DOUBLE || right == VECTOR)) {
            return VECTOR;
        }
        if (operator.equals("*") && (left == DOUBLE && right == INTERVAL || left == INTERVAL && right == DOUBLE)
                || operator.equals("/") && left == INTERVAL && right == DOUBLE) {
            return INTERVAL;
        }
        if ((operator.equals("+") || operator.equals("-")) && left == INTERVAL && right == INTERVAL) {
            return INTERVAL;
        }
        return null;
    }

    static ValueType unaryType(Position at, String operator, ValueType operand) {
        if (operand == DOUBLE || operator.equals("-") && operand == INTERVAL) {
            return operand;
        }
        throw FormulaException.syntax(at, "operator '" + operator + "' is not defined for " + operand + "; "
                + ALLOWED);
    }

    static Value unary(String operator, Value operand) {
        if (operand instanceof Value.Interval interval) {
            return new Value.Interval(interval.duration().negated());
        }
        double value = ((Value.Number) operand).value();
        return new Value.Number(operator.equals("-") ? -value : value == 0 ? 1 : 0);
    }

    static boolean isTrue(Value value) {
        return ((Value.Number) value).value() != 0;
    }

    static Value truth(boolean value) {
        return new Value.Number(value ? 1 : 0);
    }

    static Value binary(FormulaRun run, Position at, String operator, Value left, Value right) {
        if (COMPARISON.contains(operator)) {
            return truth(compare(operator, comparable(left), comparable(right)));
        }
        if (left instanceof Value.Interval || right instanceof Value.Interval) {
            return intervalArithmetic(run, at, operator, left, right);
        }
        DoubleBinaryOperator arithmetic = arithmetic(run, at, operator);
        if (left instanceof Value.Vector vector) {
            List<Double> others = right instanceof Value.Vector v ? v.values() : null;
            if (others != null && others.size() != vector.values().size()) {
                throw run.failure(at, "operator '" + operator + "' works element by element on vectors of one length;"
                        + " these have " + vector.values().size() + " and " + others.size() + " values");
            }
            List<Double> result = new ArrayList<>();
            for (int i = 0; i < vector.values().size(); i++) {
                double other = others == null ? ((Value.Number) right).value() : others.get(i);
                result.add(arithmetic.applyAsDouble(vector.values().get(i), other));
            }
            return new Value.Vector(List.copyOf(result));
        }
        return new Value.Number(arithmetic.applyAsDouble(((Value.Number) left).value(),
                ((Value.Number) right).value()));
    }

    private static DoubleBinaryOperator arithmetic(FormulaRun run, Position at, String operator) {
        return switch (operator) {
            case "+" -> Double::sum;
            case "-" -> (a, b) -> a - b;
            case "*" -> (a, b) -> a * b;
            default -> (a, b) -> {
                if (b == 0) {
                    throw run.failure(at, "division by zero");
                }
                return a / b;
            };
        };
    }

    private static Value intervalArithmetic(FormulaRun run, Position at, String operator, Value left, Value right) {
        if (left instanceof Value.Interval a && right instanceof Value.Interval b) {
            return new Value.Interval(operator.equals("+") ? a.duration().plus(b.duration())
                    : a.duration().minus(b.duration()));
        }
        Duration interval = left instanceof Value.Interval a ? a.duration() : ((Value.Interval) right).duration();
        double factor = left instanceof Value.Number n ? n.value() : ((Value.Number) right).value();
        if (operator.equals("/")) {
            if (factor == 0) {
                throw run.failure(at, "division by zero");
            }
            factor = 1 / factor;
        }
        return new Value.Interval(Duration.ofNanos(Math.round(interval.toNanos() * factor)));
    }

    private static double comparable(Value value) {
        return value instanceof Value.Interval interval ? interval.duration().toNanos()
                : ((Value.Number) value).value();
    }

    private static boolean compare(String operator, double left, double right) {
        return switch (operator) {
            case "<" -> left < right;
            case "<=" -> left <= right;
            case "==" -> left == right;
            case ">=" -> left >= right;
            case ">" -> left > right;
            default -> left != right;
        };
    }
}
