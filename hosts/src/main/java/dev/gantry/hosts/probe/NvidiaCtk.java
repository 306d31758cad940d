package dev.gantry.hosts.probe;

import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Parsers for the NVIDIA Container Toolkit: {@code nvidia-ctk --version} ({@code NVIDIA Container Toolkit CLI version
 * 1.14.6} then {@code commit: ...}) and the CDI specification files it generates for Podman.
 */
public final class NvidiaCtk {
    private static final Pattern VERSION = Pattern.compile("NVIDIA Container Toolkit CLI version\\s+(\\S+)");

    private NvidiaCtk() {
    }

    public static Parsed<Optional<String>> version(String text) {
        Matcher m = VERSION.matcher(text);
        if (m.find()) {
            return Parsed.of(Optional.of(m.group(1)));
        }
        return new Parsed<>(Optional.empty(), List.of(new ProbeProblem("nvidia-ctk",
                "expected 'NVIDIA Container Toolkit CLI version X', got '" + ProbeOutput.abbreviate(text) + "'")));
    }

    /** The CDI spec files listed (one path a line); the NVIDIA one is what Podman's {@code --device nvidia.com/gpu}
     * needs. */
    public static List<String> cdiSpecs(String text) {
        return text.lines().map(String::strip).filter(line -> line.startsWith("/")).toList();
    }
}
