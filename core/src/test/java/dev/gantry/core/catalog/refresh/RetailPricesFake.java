package dev.gantry.core.catalog.refresh;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import dev.gantry.core.fakes.LocalHttps;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * A local Azure Retail Prices API: {@code GET /api/retail/prices?$filter=...}, answering in the documented shape
 * ({@code BillingCurrency}, {@code Items}, {@code NextPageLink}, {@code Count}) in pages addressed by
 * {@code $skip}, as the real API pages. The first {@code throttled} requests are answered 429 with
 * {@code Retry-After}.
 */
final class RetailPricesFake implements AutoCloseable {
    private final HttpServer server;
    private final List<String> pages;
    private final AtomicInteger throttleLeft;
    private final String retryAfter;
    final List<String> filters = Collections.synchronizedList(new ArrayList<>());
    final ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();

    /**
     * @param itemPages the pages' {@code Items} arrays as JSON text
     * @param throttled how many requests to answer 429 first
     * @param retryAfter the 429's {@code Retry-After}, or null for none
     */
    RetailPricesFake(List<String> itemPages, int throttled, String retryAfter) throws IOException {
        this.pages = List.copyOf(itemPages);
        this.throttleLeft = new AtomicInteger(throttled);
        this.retryAfter = retryAfter;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/retail/prices", this::handle);
        server.start();
    }

    URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/retail/prices");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            filters.add(query.getOrDefault("$filter", ""));
            if (throttleLeft.getAndDecrement() > 0) {
                if (retryAfter != null) {
                    exchange.getResponseHeaders().add("Retry-After", retryAfter);
                }
                send(exchange, 429, "{\"error\":{\"code\":\"TooManyRequests\",\"message\":\"Rate limit\"}}");
                return;
            }
            int skip = Integer.parseInt(query.getOrDefault("$skip", "0"));
            int page = skip / 100;
            if (page >= pages.size()) {
                send(exchange, 400, "{\"error\":\"bad $skip\"}");
                return;
            }
            String next = page + 1 < pages.size()
                    ? "\"" + endpoint() + "?$filter=" + query.get("$filter").replace(" ", "%20") + "&$skip="
                    + (skip + 100) + "\"" : "null";
            send(exchange, 200, "{\"BillingCurrency\":\"USD\",\"CustomerEntityId\":\"Default\","
                    + "\"CustomerEntityType\":\"Retail\",\"Items\":" + pages.get(page) + ",\"NextPageLink\":" + next
                    + ",\"Count\":" + count(pages.get(page)) + "}");
        }
    }

    private static int count(String items) {
        return items.split("\"meterId\"", -1).length - 1;
    }

    private void send(HttpExchange exchange, int status, String body) throws IOException {
        statuses.add(status);
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** One price item in the API's shape. */
    static String item(String sku, String region, String meterName, String productName, String skuName,
                       double price) {
        return ("{\"currencyCode\":\"USD\",\"tierMinimumUnits\":0.0,\"retailPrice\":%s,\"unitPrice\":%s,"
                + "\"armRegionName\":\"%s\",\"location\":\"US East\",\"effectiveStartDate\":\"2024-01-01T00:00:00Z\","
                + "\"meterId\":\"00000000-0000-0000-0000-000000000000\",\"meterName\":\"%s\",\"productId\":\"DZH318Z0BQ4L\","
                + "\"skuId\":\"DZH318Z0BQ4L/00TG\",\"productName\":\"%s\",\"skuName\":\"%s\",\"serviceName\":\"Virtual Machines\","
                + "\"serviceId\":\"DZH313Z7MMC8\",\"serviceFamily\":\"Compute\",\"unitOfMeasure\":\"1 Hour\","
                + "\"type\":\"Consumption\",\"isPrimaryMeterRegion\":true,\"armSkuName\":\"%s\"}")
                .formatted(price, price, region, meterName, productName, skuName, sku);
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
