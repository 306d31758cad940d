package dev.gantry.hosts.probe;

import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The probe script's output split into its sections. Pure: takes the text the host printed, never runs anything.
 * Text outside sections, a section without its end line and a repeated section are reported as problems.
 */
public record ProbeOutput(Map<String, ProbeSection> sections, List<ProbeProblem> problems) {
    private static final Pattern START = Pattern.compile("^===gantry-probe:([A-Za-z0-9_.-]+)===$");
    private static final Pattern END = Pattern.compile("^===gantry-probe-end:([A-Za-z0-9_.-]+):(-?[0-9]{1,9})===$");

    public ProbeOutput {
        sections = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(sections, "sections")));
        problems = List.copyOf(problems);
    }

    public Optional<ProbeSection> section(String name) {
        return Optional.ofNullable(sections.get(name));
    }

    public static ProbeOutput parse(String text) {
        Objects.requireNonNull(text, "text");
        Map<String, ProbeSection> sections = new LinkedHashMap<>();
        List<ProbeProblem> problems = new ArrayList<>();
        String open = null;
        List<String> body = new ArrayList<>();
        int lineNumber = 0;
        for (String raw : text.replace("\r\n", "\n").split("\n", -1)) {
            lineNumber++;
            Matcher start = START.matcher(raw);
            Matcher end = END.matcher(raw);
            if (start.matches()) {
                if (open != null) {
                    problems.add(new ProbeProblem(open, "no end line before the next section (line " + lineNumber
                            + "); its output is ignored"));
                }
                open = start.group(1);
                body.clear();
            } else if (end.matches()) {
                String name = end.group(1);
                if (!name.equals(open)) {
                    problems.add(new ProbeProblem(name, "end line without a matching start (line " + lineNumber + ")"));
                    open = null;
                    continue;
                }
                // The script prints a newline before every end line so that it starts a line of its own; drop it.
                if (!body.isEmpty() && body.get(body.size() - 1).isEmpty()) {
                    body.remove(body.size() - 1);
                }
                if (sections.containsKey(name)) {
                    problems.add(new ProbeProblem(name, "section appears twice; the first is kept"));
                } else {
                    sections.put(name, new ProbeSection(name, Integer.parseInt(end.group(2)), String.join("\n", body)));
                }
                open = null;
            } else if (open != null) {
                body.add(raw);
            } else if (!raw.isBlank()) {
                problems.add(new ProbeProblem("output", "text outside any section at line " + lineNumber + ": '"
                        + abbreviate(raw) + "'"));
            }
        }
        if (open != null) {
            problems.add(new ProbeProblem(open, "output ended before the section's end line (was the probe cut off?)"));
        }
        return new ProbeOutput(sections, problems);
    }

    static String abbreviate(String text) {
        String line = text.strip();
        return line.length() <= 80 ? line : line.substring(0, 77) + "...";
    }
}
