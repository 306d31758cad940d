package dev.gantry.backend.aks.testcluster;

import io.fabric8.mockwebserver.http.MockResponse;
import java.nio.charset.StandardCharsets;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Lists in pages, which Fabric8's CRUD store does not do: {@code limit} items at a time, a {@code continue} token
 * while more remain, and {@code remainingItemCount}. Each page is cut from the list as it is when asked for (a real
 * API server serves every page at the first page's resourceVersion).
 */
final class ListPages {
    private ListPages() {
    }

    static MockResponse page(MockResponse full, ApiRequest request) {
        int limit = Integer.parseInt(request.parameter("limit").orElseThrow());
        int offset = request.parameter("continue").map(ListPages::offset).orElse(0);
        Map<String, Object> list = new LinkedHashMap<>(Json.read(new String(full.getBody().getBytes(),
                StandardCharsets.UTF_8), Map.class));
        List<?> items = list.get("items") instanceof List<?> all ? all : List.of();
        int end = limit <= 0 ? items.size() : Math.min(items.size(), offset + limit);
        list.put("items", items.subList(Math.min(offset, items.size()), end));
        Map<String, Object> metadata = new LinkedHashMap<>(list.get("metadata") instanceof Map<?, ?> m
                ? Json.SERIALIZATION.convertValue(m, Map.class) : Map.of());
        if (end < items.size()) {
            metadata.put("continue", Base64.getUrlEncoder().encodeToString(("offset:" + end)
                    .getBytes(StandardCharsets.UTF_8)));
            metadata.put("remainingItemCount", items.size() - end);
        }
        list.put("metadata", metadata);
        return new MockResponse().setResponseCode(200).setBody(Json.write(list));
    }

    private static int offset(String token) {
        String decoded = new String(Base64.getUrlDecoder().decode(token), StandardCharsets.UTF_8);
        if (!decoded.startsWith("offset:")) {
            throw new IllegalArgumentException("not a continue token of this server: " + token);
        }
        return Integer.parseInt(decoded.substring("offset:".length()));
    }
}
