package dev.gantry.core.advisor;

import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * What one search pass over one capacity type found (rule 9): the best candidates, one per size, best first by
 * {@link Candidate#ORDER}, and what removed the other rows.
 *
 * @param spot whether the pass used spot prices
 * @param ranked the chosen candidate and the alternatives, at most {@link CandidateSearch#KEEP}, one per size
 * @param considered rows of the workload's families looked at
 * @param feasible rows that satisfied every constraint
 * @param removed what removed the other rows
 * @param ndRemoved the same counts for ND rows only, to explain an NC fallback
 * @param retiredExample a row of a retired series (the first by size name, then region), to name in the reasons
 * @param restrictedExample a restricted row (the first by size name, then region)
 * @param unpriced rows that satisfy every constraint but have no price
 * @param quotaLost per region lost to quota, its best candidate that every other constraint allowed, best first by
 *     {@link Candidate#ORDER}
 * @param unofferedExample a row the subscription is not offered (the first by size name, then region)
 * @param zoneExample a row not allocatable in the zones asked (the first by size name, then region)
 */
record SearchPass(boolean spot, List<Candidate> ranked, int considered, int feasible, Removals removed,
                  Removals ndRemoved, OptionalInt retiredExample, OptionalInt restrictedExample,
                  Optional<Unpriced> unpriced, List<Candidate> quotaLost, OptionalInt unofferedExample,
                  OptionalInt zoneExample) {
    SearchPass {
        ranked = List.copyOf(ranked);
        quotaLost = List.copyOf(quotaLost);
    }

    /**
     * Rows that fit every constraint but have no price for the pass's capacity type.
     *
     * @param row the one with the best preference (then the first by size name, then region)
     * @param preference its preference
     * @param count how many such rows there are
     */
    record Unpriced(int row, int preference, int count) {
    }

    boolean found() {
        return !ranked.isEmpty();
    }

    /** The chosen candidate. */
    Candidate best() {
        return ranked.get(0);
    }

    /** The constraint that removed the last candidates. */
    Constraint lastConstraint() {
        return removed.last();
    }
}
