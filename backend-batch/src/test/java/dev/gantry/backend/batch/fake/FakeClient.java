package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;

/** The fake's tests' client: plain JDK HTTP with a bearer token for the Batch scope, answers as JSON. */
final class FakeClient {
    record Reply(int status, JsonNode json, HttpResponse<byte[]> raw) {
        String text() {
            return new String(raw.body(), StandardCharsets.UTF_8);
        }
    }

    private final HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();
    private final String url;

    FakeClient(BatchFake fake) {
        this.url = fake.url();
    }

    Reply get(String pathAndQuery) throws IOException, InterruptedException {
        return send("GET", pathAndQuery, null, null);
    }

    Reply post(String pathAndQuery, String json) throws IOException, InterruptedException {
        return send("POST", pathAndQuery, json, null);
    }

    Reply send(String method, String pathAndQuery, String json, String range)
            throws IOException, InterruptedException {
        String separator = pathAndQuery.contains("?") ? "&" : "?";
        String target = pathAndQuery.contains("api-version=") || pathAndQuery.startsWith("http")
                ? pathAndQuery : pathAndQuery + separator + "api-version=" + BatchHttpFront.API_VERSION;
        HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target.startsWith("http") ? target
                        : url + target))
                .header("Authorization", "Bearer fake-token:" + AccountAuth.BATCH_SCOPE)
                .timeout(Duration.ofSeconds(20))
                .method(method, json == null ? HttpRequest.BodyPublishers.noBody()
                        : HttpRequest.BodyPublishers.ofString(json));
        if (json != null) {
            request.header("Content-Type", "application/json; odata=minimalmetadata");
        }
        if (range != null) {
            request.header("ocp-range", range);
        }
        HttpResponse<byte[]> response = http.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
        JsonNode body = null;
        String type = response.headers().firstValue("Content-Type").orElse("");
        if (type.startsWith("application/json") && response.body().length > 0) {
            body = Json.MAPPER.readTree(response.body());
        }
        return new Reply(response.statusCode(), body, response);
    }
}
