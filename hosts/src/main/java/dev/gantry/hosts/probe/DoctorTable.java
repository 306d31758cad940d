package dev.gantry.hosts.probe;

import java.util.ArrayList;
import java.util.List;

/**
 * Renders findings as a plain-text table with the columns CHECK, STATUS, FOUND, NEEDED and FIX. Columns are padded
 * to their widest cell; the last column is not padded, so lines carry no trailing spaces.
 */
public final class DoctorTable {
    private static final List<String> HEADER = List.of("CHECK", "STATUS", "FOUND", "NEEDED", "FIX");

    private DoctorTable() {
    }

    public static String render(List<ProbeFinding> findings) {
        List<List<String>> rows = new ArrayList<>();
        rows.add(HEADER);
        for (ProbeFinding f : findings) {
            rows.add(List.of(f.check().checkName(), f.status().name(), oneLine(f.found()), oneLine(f.needed()),
                    f.fix().isEmpty() ? "-" : oneLine(f.fix())));
        }
        int[] widths = new int[HEADER.size()];
        for (List<String> row : rows) {
            for (int i = 0; i < row.size(); i++) {
                widths[i] = Math.max(widths[i], row.get(i).length());
            }
        }
        StringBuilder out = new StringBuilder();
        for (List<String> row : rows) {
            StringBuilder line = new StringBuilder();
            for (int i = 0; i < row.size(); i++) {
                String cell = row.get(i);
                line.append(cell);
                if (i < row.size() - 1) {
                    line.append(" ".repeat(widths[i] - cell.length() + 2));
                }
            }
            out.append(line.toString().stripTrailing()).append('\n');
        }
        return out.toString();
    }

    /** A summary line: {@code 9 OK, 2 MISSING, 1 WARN}. */
    public static String summary(List<ProbeFinding> findings) {
        long ok = findings.stream().filter(f -> f.status() == FindingStatus.OK).count();
        long missing = findings.stream().filter(f -> f.status() == FindingStatus.MISSING).count();
        long warn = findings.stream().filter(f -> f.status() == FindingStatus.WARN).count();
        return ok + " OK, " + missing + " MISSING, " + warn + " WARN";
    }

    // Tool output can hold newlines or tabs; a table row must stay on one line.
    private static String oneLine(String text) {
        return text.replaceAll("[\\t\\r\\n]+", " ").strip();
    }
}
