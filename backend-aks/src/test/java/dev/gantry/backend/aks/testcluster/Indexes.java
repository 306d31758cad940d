package dev.gantry.backend.aks.testcluster;

import java.util.ArrayList;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

/**
 * A Job's {@code completedIndexes} and {@code failedIndexes} text: increasing, comma-separated, three or more
 * consecutive numbers written {@code first-last} ({@code 1,3-5,7}).
 */
final class Indexes {
    private Indexes() {
    }

    static String format(SortedSet<Integer> indexes) {
        List<String> parts = new ArrayList<>();
        List<Integer> sorted = new ArrayList<>(indexes);
        int i = 0;
        while (i < sorted.size()) {
            int j = i;
            while (j + 1 < sorted.size() && sorted.get(j + 1) == sorted.get(j) + 1) {
                j++;
            }
            if (j - i >= 2) {
                parts.add(sorted.get(i) + "-" + sorted.get(j));
            } else {
                for (int k = i; k <= j; k++) {
                    parts.add(String.valueOf(sorted.get(k)));
                }
            }
            i = j + 1;
        }
        return String.join(",", parts);
    }

    static SortedSet<Integer> parse(String text) {
        SortedSet<Integer> indexes = new TreeSet<>();
        if (text == null || text.isBlank()) {
            return indexes;
        }
        for (String part : text.split(",")) {
            int dash = part.indexOf('-');
            if (dash < 0) {
                indexes.add(Integer.parseInt(part.trim()));
            } else {
                for (int k = Integer.parseInt(part.substring(0, dash).trim());
                        k <= Integer.parseInt(part.substring(dash + 1).trim()); k++) {
                    indexes.add(k);
                }
            }
        }
        return indexes;
    }
}
