package dev.gantry.core.advisor;

import java.util.Arrays;
import java.util.Collection;

/** Which of a catalog's regions, by region id, a plan may use; immutable. */
final class AllowedRegions {
    private final boolean[] allowed;

    private AllowedRegions(boolean[] allowed) {
        this.allowed = allowed;
    }

    /** Every one of {@code regionCount} regions. */
    static AllowedRegions all(int regionCount) {
        boolean[] allowed = new boolean[regionCount];
        Arrays.fill(allowed, true);
        return new AllowedRegions(allowed);
    }

    /** Only the given region ids of {@code regionCount} regions. */
    static AllowedRegions only(int regionCount, Collection<Integer> ids) {
        boolean[] allowed = new boolean[regionCount];
        for (int id : ids) {
            allowed[id] = true;
        }
        return new AllowedRegions(allowed);
    }

    boolean allows(int regionId) {
        return allowed[regionId];
    }

    /** How many regions the catalog has. */
    int size() {
        return allowed.length;
    }
}
