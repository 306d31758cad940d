package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;

/**
 * A local Azure Retail Prices API: {@code GET /api/retail/prices?$filter=...}, answering in the documented shape
 * ({@code BillingCurrency}, {@code CustomerEntityId}, {@code CustomerEntityType}, {@code Items},
 * {@code NextPageLink}, {@code Count}). The {@code $filter} the client sends is applied ({@link ODataFilter}); a
 * filter the fake cannot read is answered 400, as the API answers a malformed one. Pages are addressed by
 * {@code $skip} in steps of 1,000 and linked as the API links them: the same filter, percent-encoded, on
 * {@code NextPageLink}. The first {@code throttled} requests are answered 429 with {@code Retry-After}.
 */
public final class RetailPricesFake implements AutoCloseable {
    /** The API's page size. */
    public static final int PAGE_SIZE = 1000;
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpServer server;
    /** The rows, each page as given; empty pages after filtering are kept so that page numbers stay stable. */
    private final List<List<JsonNode>> pages;
    private final boolean pageAfterFiltering;
    private final AtomicInteger throttleLeft;
    private final String retryAfter;
    public final List<String> filters = Collections.synchronizedList(new ArrayList<>());
    public final ConcurrentLinkedQueue<Integer> statuses = new ConcurrentLinkedQueue<>();
    /** The {@code Count} of every page served. */
    public final ConcurrentLinkedQueue<Integer> counts = new ConcurrentLinkedQueue<>();

    /**
     * Serves the pages as given, each filtered.
     *
     * @param itemPages the pages' {@code Items} arrays as JSON text
     * @param throttled how many requests to answer 429 first
     * @param retryAfter the 429's {@code Retry-After}, or null for none
     */
    public RetailPricesFake(List<String> itemPages, int throttled, String retryAfter) throws IOException {
        this(itemPages, false, throttled, retryAfter);
    }

    private RetailPricesFake(List<String> itemPages, boolean pageAfterFiltering, int throttled, String retryAfter)
            throws IOException {
        List<List<JsonNode>> parsed = new ArrayList<>();
        for (String page : itemPages) {
            List<JsonNode> items = new ArrayList<>();
            JSON.readTree(page).forEach(items::add);
            parsed.add(items);
        }
        this.pages = parsed;
        this.pageAfterFiltering = pageAfterFiltering;
        this.throttleLeft = new AtomicInteger(throttled);
        this.retryAfter = retryAfter;
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/api/retail/prices", this::handle);
        server.start();
    }

    /** Serves every row the filter keeps in pages of {@value #PAGE_SIZE}, as the API pages its whole price list. */
    public static RetailPricesFake paging(List<String> items, int throttled, String retryAfter) throws IOException {
        return new RetailPricesFake(List.of("[" + String.join(",", items) + "]"), true, throttled, retryAfter);
    }

    public URI endpoint() {
        return URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/api/retail/prices");
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            String filter = query.getOrDefault("$filter", "");
            filters.add(filter);
            if (throttleLeft.getAndDecrement() > 0) {
                if (retryAfter != null) {
                    exchange.getResponseHeaders().add("Retry-After", retryAfter);
                }
                send(exchange, 429, "{\"error\":{\"code\":\"TooManyRequests\",\"message\":\"Rate limit\"}}");
                return;
            }
            Predicate<JsonNode> keep;
            try {
                keep = ODataFilter.parse(filter);
            } catch (IllegalArgumentException e) {
                send(exchange, 400, "{\"Error\":{\"Code\":\"BadRequest\",\"Message\":\"Invalid OData parameters"
                        + " supplied\"}}");
                return;
            }
            List<List<JsonNode>> served = new ArrayList<>();
            if (pageAfterFiltering) {
                List<JsonNode> kept = pages.get(0).stream().filter(keep).toList();
                for (int from = 0; from < kept.size() || from == 0; from += PAGE_SIZE) {
                    served.add(kept.subList(from, Math.min(kept.size(), from + PAGE_SIZE)));
                }
            } else {
                pages.forEach(page -> served.add(page.stream().filter(keep).toList()));
            }
            int skip = Integer.parseInt(query.getOrDefault("$skip", "0"));
            int page = skip / PAGE_SIZE;
            if (skip % PAGE_SIZE != 0 || page >= served.size()) {
                send(exchange, 400, "{\"error\":\"bad $skip\"}");
                return;
            }
            ObjectNode body = JSON.createObjectNode();
            body.put("BillingCurrency", "USD").put("CustomerEntityId", "Default").put("CustomerEntityType", "Retail");
            ArrayNode items = body.putArray("Items");
            served.get(page).forEach(items::add);
            if (page + 1 < served.size()) {
                // The API's own link: its host with the port spelled out, the filter percent-encoded.
                body.put("NextPageLink", "http://127.0.0.1:" + server.getAddress().getPort()
                        + "/api/retail/prices?$filter=" + URLEncoder.encode(filter, StandardCharsets.UTF_8)
                        .replace("+", "%20") + "&$skip=" + (skip + PAGE_SIZE));
            } else {
                body.putNull("NextPageLink");
            }
            body.put("Count", items.size());
            counts.add(items.size());
            send(exchange, 200, JSON.writeValueAsString(body));
        }
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

    public static final String H100 = "Standard_ND96isr_H100_v5";

    /** Two pages with Linux, Spot, Windows and Low Priority meters; the core price book reads them too. */
    public static List<String> twoPages() {
        String page1 = "[" + String.join(",",
                item(H100, "eastus", "ND96isr H100 v5", "Virtual Machines NDsr H100 v5 Series",
                        "ND96isr H100 v5", 98.32),
                item(H100, "eastus", "ND96isr H100 v5 Spot", "Virtual Machines NDsr H100 v5 Series",
                        "ND96isr H100 v5 Spot", 39.33),
                item(H100, "eastus", "ND96isr H100 v5", "Virtual Machines NDsr H100 v5 Series Windows",
                        "ND96isr H100 v5", 102.0)) + "]";
        String page2 = "[" + String.join(",",
                item(H100, "eastus", "ND96isr H100 v5 Low Priority",
                        "Virtual Machines NDsr H100 v5 Series", "ND96isr H100 v5 Low Priority", 19.66),
                item("Standard_D2s_v5", "eastus", "D2s v5", "Virtual Machines Dsv5 Series",
                        "D2s v5", 0.096),
                item("Standard_D2s_v5", "eastus", "D2s v5 Spot", "Virtual Machines Dsv5 Series",
                        "D2s v5 Spot", 0.0096)) + "]";
        return List.of(page1, page2);
    }

    /**
     * Rows as the API holds them for a VM series, {@code sizes} sizes in each region: per size a Linux price, a Spot
     * price, a Windows price, a Low Priority price, a Cloud Services price, a monthly meter, a Dev/Test price and
     * one- and three-year reservations. Only the Linux and Spot rows are VM prices Gantry may use.
     */
    public static List<String> seriesRows(List<String> regions, int sizes) {
        List<String> rows = new ArrayList<>();
        for (String region : regions) {
            for (int n = 1; n <= sizes; n++) {
                String sku = "Standard_D" + n + "s_v5";
                String meter = "D" + n + "s v5";
                double linux = 0.048 * n;
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series", meter, linux));
                rows.add(item(sku, region, meter + " Spot", "Virtual Machines Dsv5 Series", meter + " Spot",
                        linux / 10));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series Windows", meter, linux * 1.9));
                rows.add(item(sku, region, meter + " Low Priority", "Virtual Machines Dsv5 Series",
                        meter + " Low Priority", linux / 5));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series Cloud Services", meter,
                        linux * 1.2));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series", meter, linux * 730,
                        "Consumption", "1/Month", "2024-01-01T00:00:00Z"));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series", meter, linux * 0.6,
                        "DevTestConsumption", "1 Hour", "2024-01-01T00:00:00Z"));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series", meter, linux * 5000,
                        "Reservation", "1 Hour", "2024-01-01T00:00:00Z"));
                rows.add(item(sku, region, meter, "Virtual Machines Dsv5 Series", meter, linux * 9000,
                        "Reservation", "3 Years", "2024-01-01T00:00:00Z"));
            }
        }
        return rows;
    }

    /** One Linux pay-as-you-go price item in the API's shape, effective since 2024-01-01. */
    /**
     * Rows real Retail data has for one size and region that a naive reader mistakes for its Linux price: the Linux
     * on-demand row ($3.673), then, with a later {@code effectiveStartDate}, an abbreviated Windows row ({@code Srs
     * Win}), a Cloud Services row of the same {@code armSkuName}, and a Spot row said by its SKU name only ($0.898).
     */
    public static List<String> a100RowsThatHideTheLinuxPrice() {
        String a100 = "Standard_NC24ads_A100_v4";
        String later = "2025-06-01T00:00:00Z";
        return List.of(
                item(a100, "eastus", "NC24ads A100 v4", "Virtual Machines NCadsA100v4 Series", "NC24ads A100 v4",
                        3.673),
                item(a100, "eastus", "NC24ads A100 v4", "Virtual Machines NCadsA100v4 Srs Win", "NC24ads A100 v4",
                        4.409, "Consumption", "1 Hour", later),
                item(a100, "eastus", "NC24ads A100 v4", "Virtual Machines NCadsA100v4 Series Cloud Services",
                        "NC24ads A100 v4", 4.1, "Consumption", "1 Hour", later),
                item(a100, "eastus", "NC24ads A100 v4", "Virtual Machines NCadsA100v4 Series",
                        "NC24ads A100 v4 Spot", 0.898, "Consumption", "1 Hour", later));
    }

    public static String item(String sku, String region, String meterName, String productName, String skuName,
                              double price) {
        return item(sku, region, meterName, productName, skuName, price, "Consumption", "1 Hour",
                "2024-01-01T00:00:00Z");
    }

    /** One price item in the API's shape, with the fields that tell real rows apart. */
    public static String item(String sku, String region, String meterName, String productName, String skuName,
                              double price, String type, String unitOfMeasure, String effectiveStartDate) {
        ObjectNode item = JSON.createObjectNode();
        item.put("currencyCode", "USD").put("tierMinimumUnits", 0.0).put("retailPrice", price)
                .put("unitPrice", price).put("armRegionName", region).put("location", "US East")
                .put("effectiveStartDate", effectiveStartDate)
                .put("meterId", java.util.UUID.nameUUIDFromBytes((sku + region + meterName + productName + type)
                        .getBytes(StandardCharsets.UTF_8)).toString())
                .put("meterName", meterName).put("productId", "DZH318Z0BQ4L").put("skuId", "DZH318Z0BQ4L/00TG")
                .put("productName", productName).put("skuName", skuName).put("serviceName", "Virtual Machines")
                .put("serviceId", "DZH313Z7MMC8").put("serviceFamily", "Compute").put("unitOfMeasure", unitOfMeasure)
                .put("type", type).put("isPrimaryMeterRegion", true).put("armSkuName", sku);
        if (type.equals("Reservation")) {
            item.put("reservationTerm", unitOfMeasure.equals("1 Hour") ? "1 Year" : "3 Years");
        }
        return item.toString();
    }

    @Override
    public void close() {
        server.stop(0);
    }
}
