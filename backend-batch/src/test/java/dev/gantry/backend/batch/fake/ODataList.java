package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.StringJoiner;
import java.util.function.Predicate;

/**
 * One page of a Batch list: {@code $filter} (per {@link FilterTable}), {@code $select} (top-level properties, each one
 * the resource has), {@code maxresults} (1 to 1000, default 1000) and {@code odata.nextLink}, which carries its own
 * query (api-version, filter, select, maxresults and a {@code $skiptoken}) so that a client follows it as given.
 */
final class ODataList {
    static final int MAX_RESULTS = 1000;

    private ODataList() {
    }

    static FakeResponse page(FakeRequest request, String baseUrl, String metadataEntity, List<ObjectNode> items,
            Map<String, FilterTable.Property> filters, Set<String> selectable) {
        Predicate<JsonNode> filter = ODataFilter.parse(request.param("$filter"), filters);
        List<String> select = select(request.param("$select"), selectable);
        int maxResults = maxResults(request.param("maxresults"));
        int skip = skip(request.param("$skiptoken"));
        List<ObjectNode> matching = new ArrayList<>();
        for (ObjectNode item : items) {
            if (filter.test(item)) {
                matching.add(item);
            }
        }
        ObjectNode body = Json.object();
        body.put("odata.metadata", baseUrl + "/$metadata#" + metadataEntity);
        ArrayNode value = body.putArray("value");
        int end = Math.min(matching.size(), skip + maxResults);
        for (int i = skip; i < end; i++) {
            value.add(project(matching.get(i), select));
        }
        if (end < matching.size()) {
            body.put("odata.nextLink", nextLink(request, baseUrl, end));
        }
        return FakeResponse.json(200, body);
    }

    static JsonNode project(ObjectNode item, List<String> select) {
        if (select == null) {
            return item.deepCopy();
        }
        ObjectNode projected = Json.object();
        for (String name : select) {
            JsonNode value = item.get(name);
            if (value != null) {
                projected.set(name, value.deepCopy());
            }
        }
        return projected;
    }

    /** The {@code $select} names, or null for every property; a name the resource does not have is refused. */
    static List<String> select(String raw, Set<String> selectable) {
        if (raw == null || raw.isBlank()) {
            return null;
        }
        List<String> names = new ArrayList<>();
        for (String part : raw.split(",")) {
            String name = part.strip();
            if (!selectable.contains(name)) {
                throw BatchError.invalidQuery("$select", raw, "'" + name + "' is not a property of this resource");
            }
            names.add(name);
        }
        return names;
    }

    private static int maxResults(String raw) {
        if (raw == null) {
            return MAX_RESULTS;
        }
        try {
            int value = Integer.parseInt(raw);
            if (value >= 1 && value <= MAX_RESULTS) {
                return value;
            }
        } catch (NumberFormatException e) {
            // refused below
        }
        throw BatchError.invalidQuery("maxresults", raw, "must be an integer from 1 to " + MAX_RESULTS);
    }

    private static int skip(String raw) {
        if (raw == null) {
            return 0;
        }
        if (raw.matches("o[0-9]{1,9}")) {
            return Integer.parseInt(raw.substring(1));
        }
        throw BatchError.invalidQuery("$skiptoken", raw, "not a continuation token this list gave");
    }

    private static String nextLink(FakeRequest request, String baseUrl, int next) {
        StringJoiner query = new StringJoiner("&");
        for (String name : List.of("api-version", "$filter", "$select", "maxresults")) {
            String value = request.param(name);
            if (value != null) {
                query.add(encode(name) + "=" + encode(value));
            }
        }
        query.add("$skiptoken=o" + next);
        return baseUrl + request.rawPath() + "?" + query;
    }

    private static String encode(String text) {
        return URLEncoder.encode(text, StandardCharsets.UTF_8).replace("+", "%20").replace("%24", "$");
    }
}
