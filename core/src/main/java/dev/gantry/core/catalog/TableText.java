package dev.gantry.core.catalog;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStream;
import java.io.InputStreamReader;
import java.io.Reader;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.function.Function;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * A comma-separated table as the catalog files write it: {@code #} comment lines, one header line, then rows whose
 * cells may be double-quoted (SkyPilot quotes {@code "V1,V2"}). Cells are read by column name so that a bad cell is
 * reported as {@code file:line: column 'X'}.
 */
final class TableText {
    /** One data row with its 1-based line number in the file. */
    record Row(String file, int line, List<String> header, List<String> cells, List<Integer> columns) {
        String get(String column) {
            int index = header.indexOf(column);
            if (index < 0) {
                throw new IllegalArgumentException("no column " + column);
            }
            return index < cells.size() ? cells.get(index).trim() : "";
        }

        String required(String column) {
            String value = get(column);
            if (value.isEmpty()) {
                throw invalid(column, "is empty; a value is required");
            }
            return value;
        }

        OptionalDouble optionalDouble(String column) {
            String value = get(column);
            if (value.isEmpty()) {
                return OptionalDouble.empty();
            }
            try {
                double number = Double.parseDouble(value);
                if (!Double.isFinite(number) || number < 0) {
                    throw invalid(column, "is '" + value + "'; expected a number >= 0");
                }
                return OptionalDouble.of(number);
            } catch (NumberFormatException e) {
                throw invalid(column, "is '" + value + "'; expected a number such as 1.5");
            }
        }

        OptionalInt optionalInt(String column) {
            OptionalDouble number = optionalDouble(column);
            if (number.isEmpty()) {
                return OptionalInt.empty();
            }
            double value = number.getAsDouble();
            if (value != Math.rint(value)) {
                throw invalid(column, "is '" + get(column) + "'; expected a whole number");
            }
            return OptionalInt.of((int) value);
        }

        /** A bad cell, located at {@code file:line:column} and named by its column, e.g. {@code vCPUs}. */
        GantryException invalid(String column, String what) {
            int index = header.indexOf(column);
            int at = index >= 0 && index < columns.size() ? columns.get(index) : 1;
            Problem problem = new Problem(Optional.of(new SourceLocation(file, line, at)), column, what);
            return new GantryException(ErrorCode.CATALOG_INVALID, problem.toString(), List.of(problem), null);
        }
    }

    /**
     * Runs {@code action} on every row and fails once with every problem found (up to {@value #MAX_PROBLEMS}), so
     * that a user fixing a file sees all its bad rows at once.
     */
    static <T> List<T> eachRow(List<Row> rows, Function<Row, T> action) {
        List<T> results = new ArrayList<>(rows.size());
        List<Problem> problems = new ArrayList<>();
        for (Row row : rows) {
            try {
                results.add(action.apply(row));
            } catch (GantryException e) {
                if (e.problems().isEmpty()) {
                    problems.add(new Problem(Optional.of(new SourceLocation(row.file(), row.line(), 1)), "",
                            e.getMessage()));
                } else {
                    problems.addAll(e.problems());
                }
                if (problems.size() >= MAX_PROBLEMS) {
                    break;
                }
            }
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CATALOG_INVALID, problems);
        }
        return results;
    }

    /** The comment lines (without {@code # }) and the rows of a table. */
    record Table(List<String> comments, List<String> header, List<Row> rows) {
    }

    static final int MAX_PROBLEMS = 50;

    private TableText() {
    }

    static Table read(Reader source, String file, List<String> requiredColumns) {
        List<String> comments = new ArrayList<>();
        List<Row> rows = new ArrayList<>();
        List<String> header = null;
        List<Problem> shape = new ArrayList<>();
        try (BufferedReader reader = new BufferedReader(source, 1 << 16)) {
            String line;
            int number = 0;
            while ((line = reader.readLine()) != null) {
                number++;
                if (line.startsWith("#")) {
                    if (header == null) {
                        comments.add(line.startsWith("# ") ? line.substring(2) : line.substring(1));
                    }
                    continue;
                }
                if (line.isBlank()) {
                    continue;
                }
                List<Integer> columns = new ArrayList<>();
                List<String> cells = split(line, file, number, columns);
                if (header == null) {
                    header = List.copyOf(cells);
                    List<String> missing = new ArrayList<>();
                    for (String column : requiredColumns) {
                        if (!header.contains(column)) {
                            missing.add(column);
                        }
                    }
                    if (!missing.isEmpty()) {
                        throw new GantryException(ErrorCode.CATALOG_INVALID, file + ":" + number
                                + ": header lacks column(s) " + missing + "; expected " + requiredColumns);
                    }
                    continue;
                }
                if (cells.size() != header.size()) {
                    shape.add(new Problem(Optional.of(new SourceLocation(file, number, 1)), "", cells.size()
                            + " cells, the header has " + header.size() + " (" + String.join(",", header) + ")"));
                    if (shape.size() >= MAX_PROBLEMS) {
                        break;
                    }
                    continue;
                }
                rows.add(new Row(file, number, header, cells, columns));
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, "cannot read " + file + ": " + e.getMessage(), e);
        }
        if (!shape.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CATALOG_INVALID, shape);
        }
        if (header == null) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, file + ": no header line; expected "
                    + String.join(",", requiredColumns));
        }
        return new Table(comments, header, rows);
    }

    /** Reads a table shipped as a class-path resource next to the catalog classes. */
    static Table resource(String name, List<String> requiredColumns) {
        String path = "/dev/gantry/catalog/" + name;
        InputStream in = TableText.class.getResourceAsStream(path);
        if (in == null) {
            throw new UncheckedIOException(new IOException("missing resource " + path));
        }
        return read(new InputStreamReader(in, StandardCharsets.UTF_8), name, requiredColumns);
    }

    static List<String> split(String line, String file, int number, List<Integer> columns) {
        List<String> cells = new ArrayList<>();
        columns.add(1);
        StringBuilder cell = new StringBuilder();
        boolean quoted = false;
        for (int i = 0; i < line.length(); i++) {
            char c = line.charAt(i);
            if (quoted) {
                if (c == '"') {
                    if (i + 1 < line.length() && line.charAt(i + 1) == '"') {
                        cell.append('"');
                        i++;
                    } else {
                        quoted = false;
                    }
                } else {
                    cell.append(c);
                }
            } else if (c == '"') {
                quoted = true;
            } else if (c == ',') {
                columns.add(i + 2);
                cells.add(cell.toString());
                cell.setLength(0);
            } else {
                cell.append(c);
            }
        }
        if (quoted) {
            throw new GantryException(ErrorCode.CATALOG_INVALID, file + ":" + number + ": unterminated quote");
        }
        cells.add(cell.toString());
        return cells;
    }

    /** Quotes a cell for writing when it holds a comma or a quote. */
    static String cell(String value) {
        if (value.indexOf(',') < 0 && value.indexOf('"') < 0) {
            return value;
        }
        return '"' + value.replace("\"", "\"\"") + '"';
    }
}
