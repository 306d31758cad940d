package dev.gantry.backend.batch.fake.autoscale;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * What a formula reads of its pool: the sample history of each metric (time-stamped values, as Batch takes one every
 * 30 seconds, some possibly missing or late), the sampling period that says how many samples an interval should hold,
 * and the pool's current node counts and targets.
 */
public final class Samples {
    /** Batch takes a sample every 30 seconds. */
    public static final Duration BATCH_PERIOD = Duration.ofSeconds(30);

    private final Duration period;
    private final Map<String, List<Sample>> history;
    private final int currentDedicated;
    private final int currentLowPriority;
    private final int targetDedicated;
    private final int targetLowPriority;

    private record Sample(Instant at, double value) {
    }

    private Samples(Builder builder) {
        this.period = builder.period;
        Map<String, List<Sample>> sorted = new HashMap<>();
        builder.history.forEach((variable, samples) -> sorted.put(variable, samples.stream()
                .sorted(Comparator.comparing(Sample::at)).toList()));
        this.history = Map.copyOf(sorted);
        this.currentDedicated = builder.currentDedicated;
        this.currentLowPriority = builder.currentLowPriority;
        this.targetDedicated = builder.targetDedicated;
        this.targetLowPriority = builder.targetLowPriority;
    }

    public static Builder builder() {
        return new Builder();
    }

    /** A pool with no history, no node and targets of zero. */
    public static Samples none() {
        return builder().build();
    }

    public Duration period() {
        return period;
    }

    int currentDedicated() {
        return currentDedicated;
    }

    int currentLowPriority() {
        return currentLowPriority;
    }

    int targetDedicated() {
        return targetDedicated;
    }

    int targetLowPriority() {
        return targetLowPriority;
    }

    /** The last {@code count} samples taken at or before {@code now}, oldest first. */
    List<Double> last(String variable, int count, Instant now) {
        List<Double> taken = values(variable, Instant.MIN, now);
        return taken.subList(Math.max(0, taken.size() - count), taken.size());
    }

    /** The samples taken after {@code from} and at or before {@code to}, oldest first. */
    List<Double> between(String variable, Instant from, Instant to) {
        return values(variable, from, to);
    }

    private List<Double> values(String variable, Instant after, Instant upTo) {
        return history.getOrDefault(variable, List.of()).stream()
                .filter(s -> s.at().isAfter(after) && !s.at().isAfter(upTo)).map(Sample::value).toList();
    }

    public static final class Builder {
        private Duration period = BATCH_PERIOD;
        private final Map<String, List<Sample>> history = new HashMap<>();
        private int currentDedicated;
        private int currentLowPriority;
        private int targetDedicated;
        private int targetLowPriority;

        private Builder() {
        }

        /** How often samples are taken (Batch: 30 seconds), which sets how many an interval should hold. */
        public Builder period(Duration value) {
            if (value.isNegative() || value.isZero()) {
                throw new IllegalArgumentException("the sample period must be positive, got " + value);
            }
            this.period = value;
            return this;
        }

        /**
         * One sample of a metric.
         *
         * @param variable one of the sampled service-defined variables, {@code $} included ({@code $PendingTasks})
         */
        public Builder sample(String variable, Instant at, double value) {
            if (!ServiceVariables.isSampled(variable)) {
                throw new IllegalArgumentException("'" + variable + "' is not a sampled service-defined variable;"
                        + " allowed: " + String.join(", ", ServiceVariables.SAMPLED));
            }
            history.computeIfAbsent(variable, v -> new ArrayList<>()).add(new Sample(at, value));
            return this;
        }

        /** The same value for {@code variable} at every period from {@code from} up to {@code to}, both included. */
        public Builder steady(String variable, Instant from, Instant to, double value) {
            for (Instant at = from; !at.isAfter(to); at = at.plus(period)) {
                sample(variable, at, value);
            }
            return this;
        }

        public Builder currentDedicatedNodes(int value) {
            this.currentDedicated = requireCount("currentDedicatedNodes", value);
            return this;
        }

        public Builder currentLowPriorityNodes(int value) {
            this.currentLowPriority = requireCount("currentLowPriorityNodes", value);
            return this;
        }

        /** The pool's target before this evaluation: what {@code $TargetDedicatedNodes} reads until assigned. */
        public Builder targetDedicatedNodes(int value) {
            this.targetDedicated = requireCount("targetDedicatedNodes", value);
            return this;
        }

        /** The pool's target before this evaluation: what {@code $TargetLowPriorityNodes} reads until assigned. */
        public Builder targetLowPriorityNodes(int value) {
            this.targetLowPriority = requireCount("targetLowPriorityNodes", value);
            return this;
        }

        public Samples build() {
            return new Samples(this);
        }

        private static int requireCount(String name, int value) {
            if (value < 0) {
                throw new IllegalArgumentException(name + " must be 0 or more, got " + value);
            }
            return value;
        }
    }
}
