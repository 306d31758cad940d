package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import java.io.IOException;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The agent pools (node pools) of the AKS clusters in {@link ArmFake}, following the AKS REST API 2025-09-01
 * ({@code AgentPools_Get}, {@code AgentPools_List}, {@code AgentPools_CreateOrUpdate}; the published examples are in
 * the test resources {@code azure-rest/containerservice/}). A PUT is a long-running operation: 201 (200 for an
 * update) with the pool in {@code Creating} and an {@code Azure-AsyncOperation} header, whose status goes
 * {@code InProgress} then {@code Succeeded} (or ends when {@link ArmFake#completeOperations()} says so, as Azure
 * finishes a creation whether or not anyone polls), and the pool then reads {@code Succeeded}. {@code If-None-Match: *}
 * on an existing pool answers 412. Refused as AKS refuses them: a name other than 1 to 12 lower-case letters and
 * digits, a missing VM size, autoscaler bounds that do not hold the count, Spot settings on a regular pool, a Spot
 * system pool, a malformed taint, and tag names with characters Azure reserves ({@code <>%&\?/}).
 */
final class AgentPoolsFake {
    static final String CLUSTER_TYPE = "Microsoft.ContainerService/managedClusters";
    static final String POOL_TYPE = CLUSTER_TYPE + "/agentPools";
    private static final Pattern NAME = Pattern.compile("[a-z][a-z0-9]{0,11}");
    private static final Pattern TAINT = Pattern.compile("[^=:\\s]+(=[^=:\\s]*)?:(NoSchedule|PreferNoSchedule|NoExecute)");
    private static final Pattern RESERVED_TAG_CHARACTERS = Pattern.compile("[<>%&\\\\?/\\p{Cntrl}]");
    private static final int MAX_NODES = 1000;
    /** How often a pool's operation answers InProgress before it ends (so that the SDK polls at least twice). */
    private static final int POLLS_IN_PROGRESS = 1;

    private final ArmFake arm;

    AgentPoolsFake(ArmFake arm) {
        this.arm = arm;
    }

    /**
     * {@code .../managedClusters/{cluster}/agentPools[/{pool}]}: {@code s} is the path's segments, from
     * {@code subscriptions}.
     */
    void handle(HttpExchange exchange, String method, String[] s, Map<String, String> query, ObjectNode body)
            throws IOException {
        String clusterPath = "/" + String.join("/", List.of(s).subList(0, 8));
        ObjectNode cluster = arm.stored(clusterPath);
        if (cluster == null) {
            ArmFake.error(exchange, 404, "ParentResourceNotFound", "Can not perform requested operation on nested "
                    + "resource. Parent resource '" + s[7] + "' not found.");
            return;
        }
        if (s.length == 9 && method.equals("GET")) {
            arm.page(exchange, pools(clusterPath), query, 2);
        } else if (s.length == 10 && method.equals("GET")) {
            ObjectNode pool = arm.stored(clusterPath + "/agentPools/" + s[9]);
            if (pool == null) {
                ArmFake.error(exchange, 404, "ResourceNotFound", "The Resource '" + POOL_TYPE + "/" + s[9]
                        + "' under resource group was not found.");
            } else {
                ArmFake.send(exchange, 200, pool.deepCopy());
            }
        } else if (s.length == 10 && method.equals("PUT")) {
            put(exchange, clusterPath, cluster, s[9], body, query);
        } else {
            ArmFake.error(exchange, 405, "MethodNotAllowed", method + " is not supported on "
                    + String.join("/", s));
        }
    }

    private void put(HttpExchange exchange, String clusterPath, ObjectNode cluster, String name, ObjectNode body,
            Map<String, String> query) throws IOException {
        String path = clusterPath + "/agentPools/" + name;
        ObjectNode existing = arm.stored(path);
        if (existing != null && "*".equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
            ArmFake.error(exchange, 412, "PreconditionFailed", "Agent pool '" + name + "' already exists and "
                    + "If-None-Match is '*'.");
            return;
        }
        String problem = problem(name, body);
        if (problem != null) {
            ArmFake.error(exchange, 400, problem.startsWith("The tag names") ? "InvalidTagNameCharacters"
                    : "InvalidParameter", problem);
            return;
        }
        ObjectNode pool = body.deepCopy();
        pool.put("id", path).put("type", POOL_TYPE).put("name", name);
        ObjectNode properties = pool.withObjectProperty("properties");
        defaults(properties, cluster);
        properties.put("provisioningState", existing == null ? "Creating" : "Updating");
        arm.store(path, pool);
        String operation = arm.startOperation(POOL_TYPE, cluster, query, POLLS_IN_PROGRESS,
                () -> properties.put("provisioningState", "Succeeded"));
        exchange.getResponseHeaders().add("Azure-AsyncOperation", operation);
        ArmFake.send(exchange, existing == null ? 201 : 200, pool.deepCopy());
    }

    /** What AKS fills in: the cluster's Kubernetes version, Linux, 110 pods a node, a user pool, Spot defaults. */
    private static void defaults(ObjectNode properties, ObjectNode cluster) {
        String version = cluster.path("properties").path("kubernetesVersion").asText();
        if (properties.path("orchestratorVersion").asText().isEmpty()) {
            properties.put("orchestratorVersion", version);
        }
        properties.put("currentOrchestratorVersion", properties.path("orchestratorVersion").asText());
        setIfAbsent(properties, "count", 1);
        setIfAbsent(properties, "maxPods", 110);
        if (!properties.has("osType")) {
            properties.put("osType", "Linux");
        }
        if (!properties.has("mode")) {
            properties.put("mode", "User");
        }
        if ("Spot".equals(properties.path("scaleSetPriority").asText())) {
            if (!properties.has("scaleSetEvictionPolicy")) {
                properties.put("scaleSetEvictionPolicy", "Delete");
            }
            if (!properties.has("spotMaxPrice")) {
                properties.put("spotMaxPrice", -1);
            }
        }
        properties.putObject("powerState").put("code", "Running");
    }

    private static void setIfAbsent(ObjectNode properties, String field, int value) {
        if (!properties.has(field)) {
            properties.put(field, value);
        }
    }

    /** Why AKS would refuse this pool, or null. */
    private static String problem(String name, ObjectNode body) {
        if (!NAME.matcher(name).matches()) {
            return "Agent pool name '" + name + "' is invalid: it must start with a lower-case letter and contain "
                    + "only lower-case letters and digits, at most 12 characters.";
        }
        JsonNode properties = body == null ? null : body.get("properties");
        if (properties == null || properties.path("vmSize").asText().isEmpty()) {
            return "Required property 'properties.vmSize' of agent pool '" + name + "' is missing.";
        }
        String tags = reservedTagNames(properties.path("tags"));
        if (tags != null) {
            return "The tag names '" + tags + "' have reserved characters '<,>,%,&,\\,?,/' or control characters.";
        }
        boolean spot = "Spot".equals(properties.path("scaleSetPriority").asText("Regular"));
        if (!spot && (properties.has("scaleSetEvictionPolicy") || properties.has("spotMaxPrice"))) {
            return "scaleSetEvictionPolicy and spotMaxPrice of agent pool '" + name + "' are only allowed when "
                    + "scaleSetPriority is Spot.";
        }
        if (spot && "System".equals(properties.path("mode").asText())) {
            return "Agent pool '" + name + "' cannot be a System pool with Spot priority: system pools must use "
                    + "Regular priority.";
        }
        for (JsonNode taint : properties.path("nodeTaints")) {
            if (!TAINT.matcher(taint.asText()).matches()) {
                return "Node taint '" + taint.asText() + "' of agent pool '" + name + "' is not KEY[=VALUE]:EFFECT.";
            }
        }
        return properties.path("enableAutoScaling").asBoolean(false) ? autoscalerProblem(name, properties) : null;
    }

    private static String autoscalerProblem(String name, JsonNode properties) {
        if (!properties.path("minCount").isInt() || !properties.path("maxCount").isInt()) {
            return "minCount and maxCount of agent pool '" + name + "' are required when enableAutoScaling is true.";
        }
        int min = properties.path("minCount").asInt();
        int max = properties.path("maxCount").asInt();
        int count = properties.path("count").asInt(min);
        if (min < 0 || max > MAX_NODES || min > max || count < min || count > max) {
            return "Agent pool '" + name + "' needs 0 <= minCount (" + min + ") <= count (" + count + ") <= maxCount ("
                    + max + ") <= " + MAX_NODES + ".";
        }
        return null;
    }

    private static String reservedTagNames(JsonNode tags) {
        List<String> reserved = new ArrayList<>();
        for (Iterator<String> names = tags.fieldNames(); names.hasNext(); ) {
            String tag = names.next();
            if (RESERVED_TAG_CHARACTERS.matcher(tag).find()) {
                reserved.add(tag);
            }
        }
        return reserved.isEmpty() ? null : String.join(",", reserved);
    }

    private List<JsonNode> pools(String clusterPath) {
        String prefix = (clusterPath + "/agentPools/").toLowerCase(Locale.ROOT);
        return arm.storedUnder(prefix).stream().<JsonNode>map(ObjectNode::deepCopy).toList();
    }
}
