package dev.gantry.core.text;

import java.util.Collection;
import java.util.Locale;
import java.util.Optional;

/** Suggests the closest known word for a near miss, for "did you mean" hints. */
public final class DidYouMean {
    private static final int MAX_DISTANCE = 2;

    private DidYouMean() {
    }

    /** The closest candidate within edit distance 2 (or equal ignoring case), if any; ties go to the first. */
    public static Optional<String> closest(String given, Collection<String> candidates) {
        String best = null;
        int bestDistance = Integer.MAX_VALUE;
        for (String candidate : candidates) {
            int distance = candidate.equalsIgnoreCase(given) ? 0
                    : distance(given.toLowerCase(Locale.ROOT), candidate.toLowerCase(Locale.ROOT));
            if (distance < bestDistance) {
                best = candidate;
                bestDistance = distance;
            }
        }
        return bestDistance <= MAX_DISTANCE ? Optional.ofNullable(best) : Optional.empty();
    }

    /** " (did you mean 'x'?)" or the empty string. */
    public static String hint(String given, Collection<String> candidates) {
        return closest(given, candidates).map(c -> " (did you mean '" + c + "'?)").orElse("");
    }

    /** Optimal string alignment distance: insertions, deletions, substitutions and adjacent transpositions. */
    static int distance(String a, String b) {
        int[][] d = new int[a.length() + 1][b.length() + 1];
        for (int i = 0; i <= a.length(); i++) {
            d[i][0] = i;
        }
        for (int j = 0; j <= b.length(); j++) {
            d[0][j] = j;
        }
        for (int i = 1; i <= a.length(); i++) {
            for (int j = 1; j <= b.length(); j++) {
                int cost = a.charAt(i - 1) == b.charAt(j - 1) ? 0 : 1;
                d[i][j] = Math.min(Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1), d[i - 1][j - 1] + cost);
                if (i > 1 && j > 1 && a.charAt(i - 1) == b.charAt(j - 2) && a.charAt(i - 2) == b.charAt(j - 1)) {
                    d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
                }
            }
        }
        return d[a.length()][b.length()];
    }
}
