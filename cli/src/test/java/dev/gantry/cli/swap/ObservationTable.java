package dev.gantry.cli.swap;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The swap test's table, backend by observation: one row per observation, one column per backend environment, each
 * cell {@code same}, {@code different: ...} or {@code n.a.: REASON}; rendered as a Markdown table, as
 * docs/backends/README.md shows it.
 */
final class ObservationTable {
    private final List<String> columns;
    private final Map<String, Map<String, String>> rows = new LinkedHashMap<>();

    ObservationTable(List<String> columns) {
        this.columns = List.copyOf(columns);
    }

    void put(String row, String column, String cell) {
        rows.computeIfAbsent(row, r -> new LinkedHashMap<>()).put(column, cell);
    }

    /**
     * The cells of the compared rows that are neither {@code same} nor {@code n.a.}, by "row / column" (the row of
     * what each backend adds is a list, not a comparison).
     */
    Map<String, String> differences() {
        Map<String, String> differences = new LinkedHashMap<>();
        rows.forEach((row, cells) -> cells.forEach((column, cell) -> {
            if (!cell.startsWith("same") && !cell.startsWith("n.a.") && !row.startsWith("adds")) {
                differences.put(row + " / " + column, cell);
            }
        }));
        return differences;
    }

    String render() {
        StringBuilder text = new StringBuilder("| observation | " + String.join(" | ", columns) + " |\n|---|");
        columns.forEach(c -> text.append("---|"));
        text.append('\n');
        rows.forEach((row, cells) -> {
            text.append("| ").append(row).append(" |");
            columns.forEach(c -> text.append(' ').append(cells.getOrDefault(c, "")).append(" |"));
            text.append('\n');
        });
        return text.toString();
    }
}
