package dev.gantry.http;

import java.net.http.HttpResponse;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What one attempt of a call answered, as far as retrying reads it: the HTTP status and the headers. A client on
 * {@code java.net.http} has it from its response ({@link #of(HttpResponse)}); a client on another library (Fabric8,
 * the Batch SDK) builds one from what its library reports ({@link #of(int, Map)}).
 */
public interface HttpAnswer {
    /** The HTTP status code, e.g. 200, 429. */
    int status();

    /** The first value of a header, its name in any case. */
    Optional<String> header(String name);

    /** A {@code java.net.http} response's status and headers. */
    static HttpAnswer of(HttpResponse<?> response) {
        Objects.requireNonNull(response, "response");
        return new HttpAnswer() {
            @Override
            public int status() {
                return response.statusCode();
            }

            @Override
            public Optional<String> header(String name) {
                return response.headers().firstValue(name);
            }

            @Override
            public String toString() {
                return "HTTP " + response.statusCode();
            }
        };
    }

    /** A status and headers as another client reports them (header names in any case, values in order). */
    static HttpAnswer of(int status, Map<String, ? extends List<String>> headers) {
        Map<String, List<String>> copy = Map.copyOf(Objects.requireNonNull(headers, "headers"));
        return new HttpAnswer() {
            @Override
            public int status() {
                return status;
            }

            @Override
            public Optional<String> header(String name) {
                return copy.entrySet().stream()
                        .filter(entry -> entry.getKey().equalsIgnoreCase(name) && !entry.getValue().isEmpty())
                        .map(entry -> entry.getValue().get(0))
                        .findFirst();
            }

            @Override
            public String toString() {
                return "HTTP " + status;
            }
        };
    }
}
