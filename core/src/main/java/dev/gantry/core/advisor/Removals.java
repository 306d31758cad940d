package dev.gantry.core.advisor;

import java.util.Arrays;
import java.util.List;

/** How many rows each constraint removed, counting each row against the first constraint it failed; immutable. */
final class Removals {
    private final int[] counts;

    /** @param counts one count per constraint of {@link Constraint#ALL}, in its order (copied) */
    Removals(int[] counts) {
        if (counts.length != Constraint.ALL.size()) {
            throw new IllegalArgumentException("one count per constraint expected, got " + counts.length);
        }
        this.counts = counts.clone();
    }

    int count(Constraint constraint) {
        return counts[Constraint.ALL.indexOf(constraint)];
    }

    /**
     * The constraint that removed the last candidates: the last one, in evaluation order, that removed any; the first
     * constraint when none removed anything.
     */
    Constraint last() {
        List<Constraint> all = Constraint.ALL;
        for (int i = counts.length - 1; i >= 0; i--) {
            if (counts[i] > 0) {
                return all.get(i);
            }
        }
        return all.get(0);
    }

    /** {@code region 12, GPU count 30}: what removed how many rows, in evaluation order; empty when nothing did. */
    String text() {
        StringBuilder text = new StringBuilder();
        for (int i = 0; i < counts.length; i++) {
            if (counts[i] > 0) {
                if (text.length() > 0) {
                    text.append(", ");
                }
                text.append(Constraint.ALL.get(i).label()).append(' ').append(counts[i]);
            }
        }
        return text.toString();
    }

    @Override
    public boolean equals(Object other) {
        return other instanceof Removals removals && Arrays.equals(counts, removals.counts);
    }

    @Override
    public int hashCode() {
        return Arrays.hashCode(counts);
    }

    @Override
    public String toString() {
        return text();
    }
}
