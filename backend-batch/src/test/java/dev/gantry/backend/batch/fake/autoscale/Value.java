package dev.gantry.backend.batch.fake.autoscale;

import java.math.BigDecimal;
import java.math.MathContext;
import java.time.Duration;
import java.util.List;
import java.util.stream.Collectors;

/** A value while a formula runs, printed as Batch prints it in {@code results}. */
sealed interface Value {
    /** A double; Batch prints six significant digits ({@code 96.6667}), whole numbers without a point. */
    record Number(double value) implements Value {
        @Override
        public String toString() {
            return format(value);
        }
    }

    /** A doubleVec, printed {@code [1,1,2]}. */
    record Vector(List<Double> values) implements Value {
        @Override
        public String toString() {
            return values.stream().map(Value::format).collect(Collectors.joining(",", "[", "]"));
        }
    }

    /** A timeinterval, printed as an ISO-8601 duration ({@code PT3M}) as Batch's REST API writes intervals. */
    record Interval(Duration duration) implements Value {
        @Override
        public String toString() {
            return duration.toString();
        }
    }

    /** One of the {@code $NodeDeallocationOption} keywords. */
    record Option(String keyword) implements Value {
        @Override
        public String toString() {
            return keyword;
        }
    }

    static String format(double value) {
        if (!Double.isFinite(value)) {
            return String.valueOf(value);
        }
        if (value == Math.rint(value) && Math.abs(value) < 1e15) {
            return String.valueOf((long) value);
        }
        return new BigDecimal(value).round(new MathContext(6)).stripTrailingZeros().toPlainString();
    }
}
