package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import dev.gantry.azure.batch.PoolAllocationMode;
import java.io.IOException;
import java.time.Duration;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.UUID;
import java.util.regex.Pattern;

/**
 * The {@code Microsoft.Batch} routes of {@link ArmFake} (API 2024-07-01; the published examples are in the test
 * resources {@code azure-rest/batch/}): {@code BatchAccount_Get}, {@code Pool_Create} (with a user-assigned
 * identity), {@code Pool_Get}, {@code Pool_Delete} and {@code Location_ListSupportedVirtualMachineSkus}, over the
 * {@link BatchAccountModel}s the test registers.
 *
 * <p>A pool PUT is checked as the resource provider checks it: a member it does not know (a typo) is
 * {@code 400 InvalidRequestBody} naming it; {@code vmSize}, the image reference and {@code nodeAgentSkuId} are
 * required; the scale settings are {@code fixedScale} or {@code autoScale}, not both, and an autoscale evaluation
 * interval lies between 5 minutes and 168 hours; an identity is {@code UserAssigned} with managed-identity resource
 * ids. {@code If-None-Match: *} on an existing pool is {@code 412}; past the account's pool quota it is
 * {@code 409 PoolQuotaReached}. A created pool answers 200 as the example does, steady with no nodes (the data plane
 * grows it); a delete answers 202 and the pool is gone, or 204 when there was none.
 */
final class BatchArmFake {
    static final String API_VERSION = "2024-07-01";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Set<String> TOP_LEVEL = Set.of("properties", "identity", "tags");
    private static final Set<String> POOL_PROPERTIES = Set.of("displayName", "vmSize", "deploymentConfiguration",
            "scaleSettings", "interNodeCommunication", "networkConfiguration", "taskSlotsPerNode",
            "taskSchedulingPolicy", "userAccounts", "metadata", "startTask", "certificates", "applicationPackages",
            "applicationLicenses", "mountConfiguration", "targetNodeCommunicationMode", "upgradePolicy",
            "resourceTags");
    private static final Pattern IDENTITY_ID = Pattern.compile("/subscriptions/[^/]+/resourceGroups/[^/]+/providers/"
            + "Microsoft\\.ManagedIdentity/userAssignedIdentities/[^/]+", Pattern.CASE_INSENSITIVE);

    private final ArmFake arm;
    private final Map<String, BatchAccountModel> accounts = new LinkedHashMap<>();
    private final Map<String, List<String>> vmSkus = new HashMap<>();

    BatchArmFake(ArmFake arm) {
        this.arm = arm;
    }

    BatchAccountModel register(BatchAccountModel account) {
        accounts.put(account.resourceId().toLowerCase(Locale.ROOT), account);
        return account;
    }

    void vmSkus(String region, List<String> items) {
        vmSkus.computeIfAbsent(region.toLowerCase(Locale.ROOT), r -> new ArrayList<>()).addAll(items);
    }

    /** {@code /subscriptions/S/providers/Microsoft.Batch/locations/R/virtualMachineSkus}. */
    void skus(HttpExchange exchange, String region, Map<String, String> query) throws IOException {
        if (!apiVersion(exchange, query)) {
            return;
        }
        List<JsonNode> items = new ArrayList<>();
        for (String item : vmSkus.getOrDefault(region.toLowerCase(Locale.ROOT), List.of())) {
            items.add(JSON.readTree(item));
        }
        arm.page(exchange, items, query, 2);
    }

    /** {@code .../providers/Microsoft.Batch/batchAccounts/A[/pools/P]}: {@code s} is the path's segments. */
    void handle(HttpExchange exchange, String method, String[] s, Map<String, String> query, JsonNode body)
            throws IOException {
        if (!apiVersion(exchange, query)) {
            return;
        }
        String accountPath = "/" + String.join("/", List.of(s).subList(0, 8));
        BatchAccountModel account = accounts.get(accountPath.toLowerCase(Locale.ROOT));
        if (account == null) {
            ArmFake.error(exchange, 404, s.length == 8 ? "ResourceNotFound" : "ParentResourceNotFound",
                    "The Resource 'Microsoft.Batch/batchAccounts/" + s[7] + "' under resource group '" + s[3]
                            + "' was not found.");
            return;
        }
        if (s.length == 8 && method.equals("GET")) {
            ArmFake.send(exchange, 200, accountBody(account));
        } else if (s.length == 10 && s[8].equals("pools")) {
            switch (method) {
                case "GET" -> getPool(exchange, account, s[9]);
                case "PUT" -> putPool(exchange, account, s[9], body);
                case "DELETE" -> ArmFake.send(exchange, account.deletePool(s[9]) ? 202 : 204, null);
                default -> ArmFake.error(exchange, 405, "MethodNotAllowed", method + " is not supported on a pool");
            }
        } else {
            ArmFake.error(exchange, 405, "MethodNotAllowed", "The fake does not serve " + method + " "
                    + String.join("/", s));
        }
    }

    private static boolean apiVersion(HttpExchange exchange, Map<String, String> query) throws IOException {
        String version = query.get("api-version");
        if (!API_VERSION.equals(version)) {
            ArmFake.error(exchange, 400, "InvalidApiVersionParameter", "The api-version '" + version + "' is invalid."
                    + " The supported versions (of this fake) are '" + API_VERSION + "'.");
            return false;
        }
        return true;
    }

    private static ObjectNode accountBody(BatchAccountModel account) {
        ObjectNode body = JSON.createObjectNode();
        body.put("id", account.resourceId()).put("name", account.name()).put("type", "Microsoft.Batch/batchAccounts")
                .put("location", account.region());
        body.putObject("identity").put("type", "None");
        ObjectNode properties = body.putObject("properties");
        properties.put("accountEndpoint", account.endpoint())
                .put("poolAllocationMode", account.allocationMode().armValue())
                .put("provisioningState", "Succeeded").put("publicNetworkAccess", "Enabled")
                .put("poolQuota", account.poolQuota())
                .put("activeJobAndJobScheduleQuota", account.activeJobAndJobScheduleQuota());
        // Core quotas are the account's own in Batch-managed mode only; Resource Manager leaves them out otherwise.
        if (account.allocationMode() == PoolAllocationMode.BATCH_SERVICE) {
            properties.put("dedicatedCoreQuota", account.dedicatedCoreQuota())
                    .put("lowPriorityCoreQuota", account.lowPriorityCoreQuota());
            ArrayNode families = properties.putArray("dedicatedCoreQuotaPerVMFamily");
            account.familyQuotas().forEach((family, cores) -> families.addObject().put("name", family)
                    .put("coreQuota", cores));
            properties.put("dedicatedCoreQuotaPerVMFamilyEnforced", !account.familyQuotas().isEmpty());
        }
        return body;
    }

    private static void getPool(HttpExchange exchange, BatchAccountModel account, String name) throws IOException {
        ObjectNode pool = account.storedArmPool(name);
        if (pool != null) {
            ArmFake.send(exchange, 200, pool.deepCopy());
        } else if (account.hasPool(name)) {
            // A pool the data plane made: Resource Manager sees every pool of the account.
            ObjectNode view = JSON.createObjectNode();
            view.put("id", account.resourceId() + "/pools/" + name).put("name", name)
                    .put("type", "Microsoft.Batch/batchAccounts/pools");
            view.putObject("properties").put("provisioningState", account.isDeleting(name) ? "Deleting" : "Succeeded")
                    .put("allocationState", "Steady");
            ArmFake.send(exchange, 200, view);
        } else {
            ArmFake.error(exchange, 404, "PoolNotFound", "The specified pool does not exist.");
        }
    }

    private static void putPool(HttpExchange exchange, BatchAccountModel account, String name, JsonNode body)
            throws IOException {
        boolean exists = account.hasPool(name);
        if (exists && "*".equals(exchange.getRequestHeaders().getFirst("If-None-Match"))) {
            ArmFake.error(exchange, 412, "PreconditionFailed", "The pool '" + name + "' already exists and "
                    + "If-None-Match is '*'.");
            return;
        }
        if (exists) {
            ArmFake.error(exchange, 409, "PropertyCannotBeUpdated", "The fake creates pools; it does not update them.");
            return;
        }
        if (!(body instanceof ObjectNode request)) {
            ArmFake.error(exchange, 400, "InvalidRequestBody", "The request body is missing.");
            return;
        }
        String problem = problem(request);
        if (problem != null) {
            ArmFake.error(exchange, 400, "InvalidRequestBody", problem);
            return;
        }
        if (account.poolCount() >= account.poolQuota()) {
            ArmFake.error(exchange, 409, "PoolQuotaReached", "The specified account has reached its pool quota.");
            return;
        }
        ObjectNode pool = request.deepCopy();
        String etag = "W/\"0x" + Long.toHexString(System.nanoTime()).toUpperCase(Locale.ROOT) + "\"";
        pool.put("id", account.resourceId() + "/pools/" + name).put("name", name)
                .put("type", "Microsoft.Batch/batchAccounts/pools").put("etag", etag);
        ObjectNode properties = (ObjectNode) pool.get("properties");
        String now = Instant.now().toString();
        properties.put("lastModified", now).put("creationTime", now).put("provisioningState", "Succeeded")
                .put("provisioningStateTransitionTime", now).put("allocationState", "Steady")
                .put("allocationStateTransitionTime", now).put("currentDedicatedNodes", 0)
                .put("currentLowPriorityNodes", 0);
        if (!properties.has("interNodeCommunication")) {
            properties.put("interNodeCommunication", "Disabled");
        }
        if (!properties.has("taskSlotsPerNode")) {
            properties.put("taskSlotsPerNode", 1);
        }
        if (!properties.has("taskSchedulingPolicy")) {
            properties.putObject("taskSchedulingPolicy").put("nodeFillType", "Spread");
        }
        JsonNode identities = pool.path("identity").path("userAssignedIdentities");
        if (identities instanceof ObjectNode assigned) {
            for (Iterator<String> ids = assigned.fieldNames(); ids.hasNext(); ) {
                String id = ids.next();
                String identityName = id.substring(id.lastIndexOf('/') + 1);
                assigned.putObject(id).put("principalId", UUID.nameUUIDFromBytes(("principal:" + id).getBytes(
                        java.nio.charset.StandardCharsets.UTF_8)).toString()).put("clientId", "client-" + identityName);
            }
        }
        account.putArmPool(name, pool);
        exchange.getResponseHeaders().add("ETag", etag);
        ArmFake.send(exchange, 200, pool.deepCopy());
    }

    /** What the resource provider would refuse in a pool body, or null. */
    static String problem(ObjectNode request) {
        for (Iterator<String> names = request.fieldNames(); names.hasNext(); ) {
            String member = names.next();
            if (!TOP_LEVEL.contains(member)) {
                return "Could not find member '" + member + "' on object of type 'Pool'.";
            }
        }
        JsonNode properties = request.path("properties");
        if (!properties.isObject()) {
            return "The pool's properties are missing.";
        }
        for (Iterator<String> names = properties.fieldNames(); names.hasNext(); ) {
            String member = names.next();
            if (!POOL_PROPERTIES.contains(member)) {
                return "Could not find member '" + member + "' on object of type 'PoolProperties'.";
            }
        }
        if (properties.path("vmSize").asText("").isEmpty()) {
            return "The property 'vmSize' is required.";
        }
        JsonNode machine = properties.path("deploymentConfiguration").path("virtualMachineConfiguration");
        JsonNode image = machine.path("imageReference");
        boolean marketplace = image.hasNonNull("publisher") && image.hasNonNull("offer") && image.hasNonNull("sku");
        if (!marketplace && !image.hasNonNull("id")) {
            return "The property 'deploymentConfiguration.virtualMachineConfiguration.imageReference' needs "
                    + "publisher, offer and sku, or id.";
        }
        if (machine.path("nodeAgentSkuId").asText("").isEmpty()) {
            return "The property 'deploymentConfiguration.virtualMachineConfiguration.nodeAgentSkuId' is required.";
        }
        String scale = scaleProblem(properties.path("scaleSettings"));
        if (scale != null) {
            return scale;
        }
        String communication = properties.path("interNodeCommunication").asText("Disabled");
        if (!communication.equals("Enabled") && !communication.equals("Disabled")) {
            return "The value '" + communication + "' of 'interNodeCommunication' is not Enabled or Disabled.";
        }
        return identityProblem(request.path("identity"));
    }

    private static String scaleProblem(JsonNode scale) {
        boolean fixed = scale.has("fixedScale");
        boolean auto = scale.has("autoScale");
        if (fixed == auto) {
            return "The property 'scaleSettings' needs exactly one of fixedScale and autoScale.";
        }
        if (auto) {
            if (scale.path("autoScale").path("formula").asText("").isBlank()) {
                return "The property 'scaleSettings.autoScale.formula' is required.";
            }
            String interval = scale.path("autoScale").path("evaluationInterval").asText("PT15M");
            try {
                Duration duration = Duration.parse(interval);
                if (duration.compareTo(Duration.ofMinutes(5)) < 0 || duration.compareTo(Duration.ofHours(168)) > 0) {
                    return "The autoscale evaluation interval '" + interval + "' must lie between PT5M and PT168H.";
                }
            } catch (DateTimeParseException e) {
                return "The autoscale evaluation interval '" + interval + "' is not an ISO 8601 duration.";
            }
        }
        return null;
    }

    private static String identityProblem(JsonNode identity) {
        if (identity.isMissingNode()) {
            return null;
        }
        String type = identity.path("type").asText("");
        if (type.equals("None")) {
            return null;
        }
        if (!type.equals("UserAssigned")) {
            return "The identity type '" + type + "' is not supported for a pool; use UserAssigned or None.";
        }
        JsonNode assigned = identity.path("userAssignedIdentities");
        if (!assigned.isObject() || assigned.isEmpty()) {
            return "A UserAssigned identity needs userAssignedIdentities.";
        }
        for (Iterator<String> ids = assigned.fieldNames(); ids.hasNext(); ) {
            String id = ids.next();
            if (!IDENTITY_ID.matcher(id).matches()) {
                return "'" + id + "' is not the resource id of a user-assigned managed identity.";
            }
        }
        return null;
    }
}
