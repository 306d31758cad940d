package dev.gantry.hosts.probe;

import com.fasterxml.jackson.databind.JsonNode;
import dev.gantry.api.GpuVendor;
import dev.gantry.hosts.json.internal.Json;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * Parser for {@code rocm-smi --showproductname --showmeminfo vram --json}: an object with one member per card
 * ({@code card0}, {@code card1}, ...) holding {@code Card Series} (or {@code Card series} in older releases),
 * {@code Card Model} and {@code VRAM Total Memory (B)}. Versions print warnings before the JSON, so parsing starts at
 * the first <code>'{'</code>.
 */
public final class RocmSmi {
    private static final double BYTES_PER_GIB = 1024.0 * 1024.0 * 1024.0;

    private RocmSmi() {
    }

    public static Parsed<List<Gpu>> gpus(String text) {
        int start = text.indexOf('{');
        if (start < 0) {
            return new Parsed<>(List.of(), List.of(new ProbeProblem("rocm-smi",
                    "no JSON object in the output: '" + ProbeOutput.abbreviate(text) + "'")));
        }
        JsonNode cards;
        try {
            cards = Json.parse(text.substring(start));
        } catch (Json.MalformedJson malformed) {
            return new Parsed<>(List.of(), List.of(new ProbeProblem("rocm-smi", malformed.getMessage())));
        }
        if (!cards.isObject()) {
            return new Parsed<>(List.of(), List.of(new ProbeProblem("rocm-smi", "expected a JSON object of cards")));
        }
        List<Gpu> gpus = new ArrayList<>();
        List<ProbeProblem> problems = new ArrayList<>();
        for (Map.Entry<String, JsonNode> card : cards.properties()) {
            String key = card.getKey();
            JsonNode fields = card.getValue();
            if (!key.startsWith("card") || !fields.isObject()) {
                continue; // e.g. "system" entries
            }
            Optional<String> series = field(fields, "card series");
            Optional<String> model = field(fields, "card model");
            String name = series.or(() -> model).orElse("AMD GPU (" + key + ")");
            OptionalDouble memory = OptionalDouble.empty();
            Optional<String> vram = field(fields, "vram total memory (b)");
            if (vram.isPresent() && vram.get().matches("[0-9]+")) {
                memory = OptionalDouble.of(Long.parseLong(vram.get()) / BYTES_PER_GIB);
            } else {
                problems.add(new ProbeProblem("rocm-smi", key + ": 'VRAM Total Memory (B)' is "
                        + vram.map(v -> "'" + v + "'").orElse("missing") + ", expected a number of bytes"));
            }
            gpus.add(new Gpu(GpuVendor.AMD, name, memory, Optional.empty()));
        }
        if (gpus.isEmpty()) {
            problems.add(new ProbeProblem("rocm-smi", "no card entries in the JSON"));
        }
        return new Parsed<>(gpus, problems);
    }

    // Member names changed case between ROCm releases ("Card series" vs "Card Series").
    private static Optional<String> field(JsonNode fields, String lowerCaseName) {
        for (Map.Entry<String, JsonNode> e : fields.properties()) {
            if (e.getKey().toLowerCase(Locale.ROOT).equals(lowerCaseName) && !e.getValue().isNull()) {
                String value = (e.getValue().isValueNode() ? e.getValue().asText() : e.getValue().toString()).strip();
                if (!value.isEmpty() && !value.equalsIgnoreCase("N/A")) {
                    return Optional.of(value);
                }
            }
        }
        return Optional.empty();
    }
}
