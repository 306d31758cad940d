package dev.gantry.benchmarks;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.TreeMap;

/**
 * The Batch fake that scripts/test-batch.sh started as a process, as its summary (batch.env) describes it: the
 * account's URL, name and key file, and its control endpoint, whose {@code /counts} are the requests it served per
 * operation id.
 */
record BatchFakeProcess(String url, String account, Path keyFile, String controlUrl) {
    private static final HttpClient CONTROL = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

    /** From {@code $GANTRY_TEST_BATCH_DIR/batch.env} (default /var/lib/gantry-test-batch); fails with the fix. */
    static BatchFakeProcess fromSummary() throws IOException {
        String dir = System.getenv().getOrDefault("GANTRY_TEST_BATCH_DIR", "/var/lib/gantry-test-batch");
        Path summary = Path.of(dir, "batch.env");
        String start = "start it with: scripts/test-batch.sh up --control --account eastus --autoscale-interval PT1H";
        if (!Files.isReadable(summary)) {
            throw new IllegalStateException("the Batch fake's summary " + summary + " is missing: the fake is not "
                    + "running; " + start);
        }
        Map<String, String> values = new LinkedHashMap<>();
        for (String line : Files.readAllLines(summary)) {
            int equals = line.indexOf('=');
            if (!line.startsWith("#") && equals > 0) {
                values.put(line.substring(0, equals), line.substring(equals + 1).replaceAll("^\"|\"$", ""));
            }
        }
        String control = values.getOrDefault("BATCH_CONTROL_URL", "");
        if (control.isEmpty()) {
            throw new IllegalStateException("the Batch fake runs without its control endpoint (" + summary + " has no "
                    + "BATCH_CONTROL_URL), so it cannot count requests; stop it (scripts/test-batch.sh down) and "
                    + start);
        }
        return new BatchFakeProcess(values.get("BATCH_URL"), values.get("BATCH_ACCOUNT"),
                Path.of(values.get("BATCH_KEY_FILE")), control);
    }

    /** The requests the fake has served, per operation id (e.g. Task_AddCollection, Task_List). */
    Map<String, Long> counts() throws IOException, InterruptedException {
        HttpResponse<String> reply = CONTROL.send(HttpRequest.newBuilder(URI.create(controlUrl + "/counts"))
                .timeout(Duration.ofSeconds(30)).GET().build(), HttpResponse.BodyHandlers.ofString());
        if (reply.statusCode() != 200) {
            throw new IllegalStateException("the Batch fake's control endpoint answered " + reply.statusCode() + ": "
                    + reply.body());
        }
        JsonNode json = new ObjectMapper().readTree(reply.body());
        Map<String, Long> counts = new TreeMap<>();
        json.fields().forEachRemaining(entry -> counts.put(entry.getKey(), entry.getValue().asLong()));
        return counts;
    }
}
