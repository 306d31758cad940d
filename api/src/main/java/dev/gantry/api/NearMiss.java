package dev.gantry.api;

import java.util.Collection;
import java.util.Comparator;
import java.util.Locale;
import java.util.Optional;

/**
 * "Did you mean" for unknown field names and enum values: the candidate within an edit distance of 2 (Damerau:
 * a swap of neighbours counts as one edit) or equal ignoring case. Ties go to the smallest distance, then to the
 * candidate listed first, so the suggestion never depends on hash order.
 */
public final class NearMiss {
    /** The largest edit distance at which a candidate is still suggested. */
    public static final int MAX_DISTANCE = 2;

    private NearMiss() {
    }

    /**
     * The candidate closest to what was given.
     *
     * @param given the unknown name as written
     * @param candidates the names allowed, in the order to prefer on ties
     * @return the closest candidate within {@link #MAX_DISTANCE} edits (and fewer edits than {@code given} has
     *     characters) or equal ignoring case; empty when none is that close
     */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        record Scored(String candidate, int distance, int order) {
        }
        int[] order = {0};
        return candidates.stream()
                .map(c -> new Scored(c, distance(given, c), order[0]++))
                .filter(s -> s.distance() <= MAX_DISTANCE && s.distance() < Math.max(given.length(), 1)
                        || s.candidate().equalsIgnoreCase(given))
                .min(Comparator.comparingInt(Scored::distance).thenComparingInt(Scored::order))
                .map(Scored::candidate);
    }

    /**
     * The suggestion to append to an error message.
     *
     * @param given the unknown name as written
     * @param candidates the names allowed
     * @return {@code "; did you mean 'x'?"} for the {@link #closest closest} candidate, or the empty string
     */
    public static String suggestion(String given, Collection<String> candidates) {
        return closest(given, candidates).map(c -> "; did you mean '" + c + "'?").orElse("");
    }

    /** Optimal string alignment distance; a difference in case alone costs nothing. */
    static int distance(String a, String b) {
        String x = a.toLowerCase(Locale.ROOT);
        String y = b.toLowerCase(Locale.ROOT);
        int[][] d = new int[x.length() + 1][y.length() + 1];
        for (int i = 0; i <= x.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= y.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= x.length(); i++) {
            for (int j = 1; j <= y.length(); j++) {
                int cost = x.charAt(i - 1) == y.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && x.charAt(i - 1) == y.charAt(j - 2) && x.charAt(i - 2) == y.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[x.length()][y.length()];
    }
}
