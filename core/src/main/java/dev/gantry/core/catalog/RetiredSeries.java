package dev.gantry.core.catalog;

import java.util.Objects;
import java.util.regex.Pattern;

/**
 * A VM series Azure has retired: never recommended, and named as retired when asked for.
 *
 * @param series the series name as Azure writes it, e.g. {@code NCv3}
 * @param sizePattern a regular expression matching the series' size names
 * @param source where the retirement is announced
 */
public record RetiredSeries(String series, String sizePattern, String source) {
    public RetiredSeries {
        Objects.requireNonNull(series, "series");
        Objects.requireNonNull(sizePattern, "sizePattern");
        Objects.requireNonNull(source, "source");
        Pattern.compile(sizePattern);
    }

    public boolean matches(String sizeName) {
        return Pattern.matches(sizePattern, sizeName);
    }
}
