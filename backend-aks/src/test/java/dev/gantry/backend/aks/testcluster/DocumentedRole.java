package dev.gantry.backend.aks.testcluster;

import java.util.List;
import java.util.Set;

/**
 * The permissions Gantry's documentation asks for, and nothing more: the namespaced Role (jobs, pods read-only,
 * pods/log, secrets without list or watch, services) and, cluster-wide, nodes list and namespaces get. Every other
 * request of the Role's user is answered 403 in the API server's own words.
 */
final class DocumentedRole {
    private record Rule(String group, String resource, Set<String> verbs, boolean clusterWide) {
    }

    private static final List<Rule> RULES = List.of(
            new Rule("batch", "jobs", Set.of("create", "get", "list", "watch", "patch", "delete"), false),
            new Rule("", "pods", Set.of("get", "list", "watch"), false),
            new Rule("", "pods/log", Set.of("get"), false),
            new Rule("", "secrets", Set.of("create", "get", "delete"), false),
            new Rule("", "services", Set.of("create", "get", "delete"), false),
            new Rule("", "nodes", Set.of("list"), true),
            new Rule("", "namespaces", Set.of("get"), true));

    /** Discovery and version paths every authenticated user may read (system:discovery, system:public-info-viewer). */
    private static final Set<String> PUBLIC_PATH_PREFIXES = Set.of("/version", "/api", "/apis", "/openapi", "/healthz",
            "/livez", "/readyz");

    private final String namespace;
    private final String user;

    DocumentedRole(String namespace, String user) {
        this.namespace = namespace;
        this.user = user;
    }

    String user() {
        return user;
    }

    boolean allows(ApiRequest request) {
        if (!request.resourceRequest()) {
            return request.method().equalsIgnoreCase("GET")
                    && PUBLIC_PATH_PREFIXES.stream().anyMatch(p -> request.path().equals(p)
                            || request.path().startsWith(p + "/"));
        }
        String resource = request.resourceWithSubresource();
        for (Rule rule : RULES) {
            boolean scopeMatches = rule.clusterWide() || namespace.equals(request.namespace());
            if (rule.group().equals(request.group()) && rule.resource().equals(resource)
                    && rule.verbs().contains(request.verb()) && scopeMatches) {
                return true;
            }
        }
        return false;
    }

    /**
     * The API server's answer to a request RBAC denies (k8s.io/apiserver's forbiddenMessage and
     * apierrors.NewForbidden): {@code jobs.batch "x" is forbidden: User "u" cannot list resource "jobs" in API group
     * "batch" in the namespace "ns"}.
     */
    String forbiddenStatus(ApiRequest request) {
        String message;
        if (!request.resourceRequest()) {
            message = "forbidden: User \"" + user + "\" cannot " + request.verb() + " path \"" + request.path() + "\"";
            return status(message, "", "", "");
        }
        String qualified = request.group().isEmpty() ? request.resource() : request.resource() + "." + request.group();
        String scope = request.namespace().isEmpty() || request.resource().equals("namespaces")
                ? "at the cluster scope"
                : "in the namespace \"" + request.namespace() + "\"";
        String reason = "User \"" + user + "\" cannot " + request.verb() + " resource \""
                + request.resourceWithSubresource() + "\" in API group \"" + request.group() + "\" " + scope;
        String subject = request.name().isEmpty() ? qualified : qualified + " \"" + request.name() + "\"";
        return status(subject + " is forbidden: " + reason, request.name(), request.group(), request.resource());
    }

    private static String status(String message, String name, String group, String kind) {
        return Json.object("kind", "Status", "apiVersion", "v1", "metadata", Json.map(), "status", "Failure",
                "message", message, "reason", "Forbidden",
                "details", Json.map("name", name, "group", group, "kind", kind), "code", 403);
    }
}
