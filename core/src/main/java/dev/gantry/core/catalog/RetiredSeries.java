package dev.gantry.core.catalog;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
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

    private static final List<String> COLUMNS = List.of("series", "sizePattern", "source");
    private static volatile List<RetiredSeries> azure;

    /** The retired series the project keeps ({@code retired-series.csv}), each with its source. */
    public static List<RetiredSeries> azureRetirements() {
        List<RetiredSeries> list = azure;
        if (list == null) {
            List<RetiredSeries> loaded = new ArrayList<>();
            for (TableText.Row row : TableText.resource("retired-series.csv", COLUMNS).rows()) {
                loaded.add(new RetiredSeries(row.required("series"), row.required("sizePattern"),
                        row.required("source")));
            }
            list = List.copyOf(loaded);
            azure = list;
        }
        return list;
    }

    /** Compiled patterns, shared: the advisor asks about every catalog row, and compiling each time dominated. */
    private static final ConcurrentHashMap<String, Pattern> COMPILED =
            new ConcurrentHashMap<>();

    public boolean matches(String sizeName) {
        return COMPILED.computeIfAbsent(sizePattern, Pattern::compile).matcher(sizeName).matches();
    }
}
