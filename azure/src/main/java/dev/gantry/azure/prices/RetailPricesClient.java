package dev.gantry.azure.prices;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.http.HttpRetry;
import dev.gantry.http.Jitter;
import dev.gantry.http.RetryOutcome;
import dev.gantry.http.Sleeper;
import java.io.IOException;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;

/**
 * Reads Linux pay-as-you-go VM prices from the public Azure Retail Prices API (no authentication). Follows
 * {@code NextPageLink} to the last page and retries throttling (429), unavailability (503) and connection failures
 * through {@link HttpRetry}: waiting as {@code Retry-After} says, with bounded exponential backoff otherwise.
 */
public final class RetailPricesClient {
    /** The public endpoint. */
    public static final URI PUBLIC_ENDPOINT = URI.create("https://prices.azure.com/api/retail/prices");
    /** Which rows {@link #vmPrices} keeps, in words, for a catalog's provenance. */
    public static final String SELECTION = "Linux consumption prices, USD per VM-hour; Windows (also 'Win'), Cloud"
            + " Services, Low Priority, Dev/Test, reservation and non-hourly meters excluded; spot meters are those"
            + " whose meter or SKU name ends in ' Spot'";
    private static final ObjectMapper JSON = new ObjectMapper();

    private final URI endpoint;
    private final HttpClient http;
    private final HttpRetry retry;

    /**
     * A client whose waits are exactly as computed (no jitter), which a test that records them compares.
     *
     * @param endpoint the prices endpoint ({@link #PUBLIC_ENDPOINT} in production)
     * @param http the HTTP client
     * @param sleeper how to wait between attempts
     * @param maxAttempts attempts per page before giving up (at least 1)
     * @param maxWait the longest single wait, whatever {@code Retry-After} asks
     */
    public RetailPricesClient(URI endpoint, HttpClient http, Sleeper sleeper, int maxAttempts, Duration maxWait) {
        this(endpoint, http, policy(maxAttempts, maxWait).sleeper(Objects.requireNonNull(sleeper, "sleeper"))
                .jitter(Jitter.NONE).build());
    }

    /**
     * @param endpoint the prices endpoint ({@link #PUBLIC_ENDPOINT} in production)
     * @param http the HTTP client
     * @param retry how each page is retried
     */
    public RetailPricesClient(URI endpoint, HttpClient http, HttpRetry retry) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.http = Objects.requireNonNull(http, "http");
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** The public endpoint, 6 attempts per page, waits of at most a minute with jitter. */
    public static RetailPricesClient publicApi() {
        return new RetailPricesClient(PUBLIC_ENDPOINT,
                HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(20)).build(),
                policy(6, Duration.ofSeconds(60)).build());
    }

    /**
     * The API's retries: connection failures too (a public endpoint on the internet drops connections now and then),
     * and a longer {@code Retry-After} shortened to the longest wait rather than given up on.
     */
    private static HttpRetry.Builder policy(int maxAttempts, Duration maxWait) {
        if (maxAttempts < 1) {
            throw new IllegalArgumentException("maxAttempts must be >= 1, got " + maxAttempts);
        }
        return HttpRetry.builder().attempts(maxAttempts).longestWait(Objects.requireNonNull(maxWait, "maxWait"))
                .retryIoFailures(true).whenAskedToWaitLonger(HttpRetry.LongerWait.WAIT_THE_LONGEST);
    }

    /** How many requests this client has sent, retries included. */
    public long calls() {
        return retry.calls();
    }

    /** The OData filter for consumption VM prices in the given regions. */
    static String filter(Collection<String> regions) {
        StringBuilder filter = new StringBuilder("serviceName eq 'Virtual Machines' and priceType eq 'Consumption'");
        if (!regions.isEmpty()) {
            filter.append(" and (").append(regions.stream().sorted()
                    .map(region -> "armRegionName eq '" + region.replace("'", "''") + "'")
                    .collect(Collectors.joining(" or "))).append(')');
        }
        return filter.toString();
    }

    /**
     * Every Linux pay-as-you-go VM price row for the regions (all regions when empty), on demand and Spot: rows
     * that are not ({@link RetailPrice#linuxVmHourly()}: Windows, Cloud Services, Low Priority, Dev/Test,
     * reservations, non-hourly meters) are dropped here, where Azure's rows are read, whatever the filter let through.
     */
    public List<RetailPrice> vmPrices(Collection<String> regions) {
        return vmPrices(regions, pages -> { });
    }

    /**
     * As {@link #vmPrices(Collection)}, telling {@code pageFetched} how many pages have been read after each one: a
     * region's prices take tens of pages, and a person waiting wants to see that the reading moves.
     */
    public List<RetailPrice> vmPrices(Collection<String> regions, java.util.function.IntConsumer pageFetched) {
        URI next = URI.create(endpoint + "?$filter=" + URLEncoder.encode(filter(regions), StandardCharsets.UTF_8)
                .replace("+", "%20"));
        List<RetailPrice> prices = new ArrayList<>();
        int pages = 0;
        while (next != null) {
            if (++pages > 10_000) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "Retail Prices API: more than 10000 pages; stopped"
                        + " following NextPageLink at " + next);
            }
            JsonNode page = fetch(next);
            for (JsonNode item : page.path("Items")) {
                RetailPrice price = item(item);
                if (price.linuxVmHourly()) {
                    prices.add(price);
                }
            }
            pageFetched.accept(pages);
            JsonNode link = page.get("NextPageLink");
            next = link == null || link.isNull() || link.asText().isEmpty() ? null : URI.create(link.asText());
        }
        return prices;
    }

    private static RetailPrice item(JsonNode item) {
        return new RetailPrice(item.path("armSkuName").asText(""), item.path("armRegionName").asText(""),
                item.path("meterName").asText(""), item.path("productName").asText(""),
                item.path("skuName").asText(""), item.path("retailPrice").asDouble(0),
                item.path("unitOfMeasure").asText(""), item.path("currencyCode").asText(""),
                item.path("type").asText(""), item.path("effectiveStartDate").asText(""),
                item.path("isPrimaryMeterRegion").asBoolean(false));
    }

    private JsonNode fetch(URI uri) {
        RetryOutcome<HttpResponse<String>> outcome;
        try {
            outcome = retry.send(http, HttpRequest.newBuilder(uri).timeout(Duration.ofSeconds(60))
                    .header("Accept", "application/json").GET().build(), HttpResponse.BodyHandlers.ofString());
        } catch (IOException e) {
            // Connection failures often carry no message; the exception's kind is what tells them apart.
            String why = e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getClass().getSimpleName() + ": " + e.getMessage();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Retail Prices API unreachable at "
                    + uri.getScheme() + "://" + uri.getHost() + " after " + retry.attempts() + " attempts (" + why
                    + "); check the network or a proxy (HTTPS_PROXY)", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while reading " + uri, e);
        }
        HttpResponse<String> response = outcome.response();
        if (outcome.status() == 200) {
            try {
                return JSON.readTree(response.body());
            } catch (IOException e) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "Retail Prices API answered " + uri
                        + " with a body that is not JSON: " + e.getMessage(), e);
            }
        }
        throw new GantryException(ErrorCode.REMOTE_ERROR, "Retail Prices API answered HTTP " + outcome.status()
                + " for " + uri + (outcome.gaveUp() ? " " + outcome.attempts() + " times" : "") + ": "
                + abbreviate(response.body()));
    }

    private static String abbreviate(String body) {
        String text = body == null ? "" : body.strip();
        return text.length() > 300 ? text.substring(0, 300) + "..." : text;
    }
}
