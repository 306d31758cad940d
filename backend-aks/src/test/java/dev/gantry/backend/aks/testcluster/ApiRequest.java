package dev.gantry.backend.aks.testcluster;

import java.net.URI;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

/**
 * One request to the test API server, read as the API server's authorizer reads it: verb, API group, resource,
 * subresource, namespace and name (or a non-resource path such as {@code /version}).
 */
record ApiRequest(String method, String path, Map<String, String> query, boolean resourceRequest, String verb,
        String group, String resource, String subresource, String namespace, String name) {

    static ApiRequest parse(String method, String uri) {
        URI parsed = URI.create(uri);
        String path = parsed.getRawPath();
        Map<String, String> query = query(parsed.getRawQuery());
        String[] segments = path.replaceAll("^/+|/+$", "").split("/");
        int start;
        String group;
        if (segments.length >= 3 && segments[0].equals("api")) {
            start = 2;
            group = "";
        } else if (segments.length >= 4 && segments[0].equals("apis")) {
            start = 3;
            group = segments[1];
        } else {
            return new ApiRequest(method, path, query, false, method.toLowerCase(), "", "", "", "", "");
        }
        String namespace = "";
        int at = start;
        if (segments[at].equals("namespaces") && segments.length > at + 2) {
            namespace = segments[at + 1];
            at += 2;
        }
        String resource = segments[at];
        String name = segments.length > at + 1 ? decode(segments[at + 1]) : "";
        String subresource = segments.length > at + 2 ? segments[at + 2] : "";
        if (resource.equals("namespaces") && !name.isEmpty()) {
            namespace = name;
        }
        return new ApiRequest(method, path, query, true, verb(method, name, query), group, resource, subresource,
                namespace, name);
    }

    private static String verb(String method, String name, Map<String, String> query) {
        boolean watch = "true".equals(query.get("watch")) || "1".equals(query.get("watch"));
        return switch (method.toUpperCase()) {
            case "GET", "HEAD" -> watch ? "watch" : name.isEmpty() ? "list" : "get";
            case "POST" -> "create";
            case "PUT" -> "update";
            case "PATCH" -> "patch";
            case "DELETE" -> name.isEmpty() ? "deletecollection" : "delete";
            default -> method.toLowerCase();
        };
    }

    private static Map<String, String> query(String raw) {
        Map<String, String> query = new LinkedHashMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int eq = pair.indexOf('=');
            query.put(decode(eq < 0 ? pair : pair.substring(0, eq)), eq < 0 ? "" : decode(pair.substring(eq + 1)));
        }
        return query;
    }

    private static String decode(String s) {
        return URLDecoder.decode(s, StandardCharsets.UTF_8);
    }

    /** The resource with its subresource, as RBAC names it: {@code pods/log}. */
    String resourceWithSubresource() {
        return subresource.isEmpty() ? resource : resource + "/" + subresource;
    }

    Optional<String> parameter(String key) {
        return Optional.ofNullable(query.get(key)).filter(v -> !v.isEmpty());
    }

    boolean isMutation() {
        return !method.equalsIgnoreCase("GET") && !method.equalsIgnoreCase("HEAD");
    }
}
