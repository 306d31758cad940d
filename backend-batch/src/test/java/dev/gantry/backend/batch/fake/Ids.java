package dev.gantry.backend.batch.fake;

import java.util.regex.Pattern;

/** Batch's rule for pool, job and task ids: 1 to 64 letters, digits, hyphens and underscores. */
final class Ids {
    private static final Pattern ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");

    private Ids() {
    }

    static String check(String property, String id) {
        if (!ID.matcher(id).matches()) {
            throw BatchError.invalidProperty(property, id, "an id is 1 to 64 letters, digits, hyphens and "
                    + "underscores");
        }
        return id;
    }
}
