package dev.gantry.core.catalog.refresh;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsServer;
import dev.gantry.core.fakes.LocalHttps;
import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import reactor.core.publisher.Mono;

/**
 * A local Azure Resource Manager for the Compute endpoints the catalog uses, over HTTPS ({@link LocalHttps}: the SDK
 * sends bearer tokens only over HTTPS):
 * <ul>
 *   <li>{@code GET /subscriptions/{id}/providers/Microsoft.Compute/skus?api-version=...&$filter=location eq 'R'}:
 *       {@code value} + {@code nextLink} paging, the first request answered 429 with {@code Retry-After: 0};</li>
 *   <li>{@code GET /subscriptions/{id}/providers/Microsoft.Compute/locations/{location}/usages}.</li>
 * </ul>
 * Requests without {@code Authorization: Bearer fake-token} get 401, as ARM answers.
 */
final class ArmFake implements AutoCloseable {
    static final String SUBSCRIPTION = "00000000-1111-2222-3333-444444444444";
    static final String TOKEN = "fake-token";

    private final HttpsServer server;
    private final Map<String, List<String>> skuPages;
    private final Map<String, String> usages;
    private final AtomicInteger throttleLeft = new AtomicInteger(1);
    final List<String> requests = Collections.synchronizedList(new ArrayList<>());

    /**
     * @param skuPages per region, the SKU pages' {@code value} arrays as JSON text
     * @param usages per region, the usages {@code value} array as JSON text
     */
    ArmFake(Map<String, List<String>> skuPages, Map<String, String> usages) throws Exception {
        this.skuPages = skuPages;
        this.usages = usages;
        server = LocalHttps.start(this::handle);
    }

    /** How many requests were answered 429. */
    int throttled() {
        return Math.max(0, 1 - throttleLeft.get());
    }

    String endpoint() {
        return LocalHttps.baseUrl(server) + "/";
    }

    /** A profile whose Resource Manager endpoint is this fake. */
    AzureProfile profile() {
        // Start from the public cloud's endpoints (the SDK reads several) and point Resource Manager here.
        Map<String, String> endpoints = new java.util.HashMap<>(AzureEnvironment.AZURE.getEndpoints());
        endpoints.put("resourceManagerEndpointUrl", endpoint());
        endpoints.put("activeDirectoryEndpointUrl", endpoint());
        return new AzureProfile("tenant", SUBSCRIPTION, new AzureEnvironment(endpoints));
    }

    /** The SDK's Netty client, trusting the fakes' certificate only. */
    HttpClient httpClient() {
        return LocalHttps.trustingHttpClient();
    }

    /** A credential that hands out the fake's token, as DefaultAzureCredential would hand out a real one. */
    static TokenCredential credential() {
        return request -> Mono.just(new AccessToken(TOKEN, OffsetDateTime.now().plusHours(1)));
    }

    ResourceSkusClient client() {
        return ResourceSkusClient.connect(credential(), profile(), httpClient());
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getPath();
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            requests.add(exchange.getRequestMethod() + " " + path + " " + query);
            if (!("Bearer " + TOKEN).equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                send(exchange, 401, "{\"error\":{\"code\":\"AuthenticationFailed\",\"message\":\"Authentication"
                        + " failed. The 'Authorization' header is missing.\"}}");
                return;
            }
            if (!query.containsKey("api-version")) {
                send(exchange, 400, "{\"error\":{\"code\":\"MissingApiVersionParameter\",\"message\":\"The"
                        + " api-version query parameter (?api-version=) is required for all requests.\"}}");
                return;
            }
            String prefix = "/subscriptions/" + SUBSCRIPTION + "/providers/Microsoft.Compute/";
            if (path.equals(prefix + "skus")) {
                if (throttleLeft.get() > 0) {
                    throttleLeft.decrementAndGet();
                    exchange.getResponseHeaders().add("Retry-After", "0");
                    send(exchange, 429, "{\"error\":{\"code\":\"TooManyRequests\",\"message\":\"throttled\"}}");
                    return;
                }
                String filter = query.getOrDefault("$filter", "");
                String region = filter.replaceAll("^location eq '(.*)'$", "$1");
                List<String> pages = skuPages.getOrDefault(region, List.of("[]"));
                int page = Integer.parseInt(query.getOrDefault("page", "0"));
                String next = page + 1 < pages.size() ? ",\"nextLink\":\"" + endpoint() + prefix.substring(1)
                        + "skus?api-version=" + query.get("api-version") + "&$filter="
                        + filter.replace(" ", "%20").replace("'", "%27") + "&page=" + (page + 1) + "\"" : "";
                send(exchange, 200, "{\"value\":" + pages.get(page) + next + "}");
            } else if (path.startsWith(prefix + "locations/") && path.endsWith("/usages")) {
                String region = path.substring((prefix + "locations/").length(), path.length() - "/usages".length());
                send(exchange, 200, "{\"value\":" + usages.getOrDefault(region, "[]") + "}");
            } else {
                send(exchange, 404, "{\"error\":{\"code\":\"NotFound\",\"message\":\"no route " + path + "\"}}");
            }
        }
    }

    private static void send(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** One VM SKU in the documented {@code ResourceSkus_List} shape. */
    static String sku(String name, String family, String region, Map<String, String> capabilities,
                      String restrictionReason) {
        StringBuilder caps = new StringBuilder();
        capabilities.forEach((key, value) -> caps.append(caps.length() == 0 ? "" : ",")
                .append("{\"name\":\"").append(key).append("\",\"value\":\"").append(value).append("\"}"));
        String restrictions = restrictionReason == null ? "[]"
                : "[{\"type\":\"Location\",\"values\":[\"" + region + "\"],\"restrictionInfo\":{\"locations\":[\""
                + region + "\"]},\"reasonCode\":\"" + restrictionReason + "\"}]";
        return "{\"resourceType\":\"virtualMachines\",\"name\":\"" + name + "\",\"tier\":\"Standard\",\"size\":\""
                + name.substring("Standard_".length()) + "\",\"family\":\"" + family + "\",\"locations\":[\"" + region
                + "\"],\"locationInfo\":[{\"location\":\"" + region + "\",\"zones\":[\"1\",\"2\"],\"zoneDetails\":[]}],"
                + "\"capabilities\":[" + caps + "],\"restrictions\":" + restrictions + "}";
    }

    /** One usage in the documented {@code Usage_List} shape. */
    static String usage(String name, String localized, int current, long limit) {
        return "{\"unit\":\"Count\",\"currentValue\":" + current + ",\"limit\":" + limit + ",\"name\":{\"value\":\""
                + name + "\",\"localizedValue\":\"" + localized + "\"}}";
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
