package dev.gantry.azure.batch;

import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.management.exception.ManagementError;
import com.azure.core.management.exception.ManagementException;
import com.azure.core.util.Context;
import com.azure.resourcemanager.compute.fluent.ComputeManagementClient;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.arm.ArmFailures;
import dev.gantry.azure.arm.ArmFailures.Scope;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalInt;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Batch management through Resource Manager ({@code Microsoft.Batch}, API {@value #API_VERSION}): read an account
 * (allocation mode and core quotas), create, read and delete a pool with a user-assigned identity, and list the VM
 * sizes Batch supports in a region. Raw REST on the HTTP pipeline {@link ArmConnector} builds (its credential, its
 * retries), so no Batch management SDK is needed; JDK-typed in and out; every failure is a {@link GantryException}
 * read as {@link ArmFailures} reads Resource Manager's errors.
 */
public final class BatchManagement {
    public static final String API_VERSION = "2024-07-01";
    private static final String ACCOUNT_ROLE = "the Contributor role on the Batch account";
    private static final String POOL_ROLE = "the Contributor role on the Batch account, and Managed Identity "
            + "Operator on the pool's user-assigned identity";
    private static final ObjectMapper JSON = new ObjectMapper();
    /** PUTs of one pool when each meets a pool that is gone by the time it is read (deleted in between). */
    static final int CREATE_ATTEMPTS = 3;

    private final ArmConnector connector;
    private final Map<String, ComputeManagementClient> clients = new ConcurrentHashMap<>();

    public BatchManagement(ArmConnector connector) {
        this.connector = Objects.requireNonNull(connector, "connector");
    }

    /** The cloud the environment chooses, signed in as {@link ArmConnector#defaultAzureCredential} signs in. */
    public static BatchManagement azure() {
        return new BatchManagement(ArmConnector.defaultAzureCredential());
    }

    public BatchAccount account(BatchAccountId id) {
        Scope scope = scope("reading Batch account " + id.accountName(), "", ACCOUNT_ROLE);
        Answer answer = send(id.subscriptionId(), HttpMethod.GET, id.path(), null, Map.of(), scope);
        if (answer.status() != 200) {
            throw answer.failure(scope);
        }
        return account(id, answer.json(scope));
    }

    /**
     * Creates the pool, or finds it already there: the PUT says {@code If-None-Match: *}, so an existing pool (made
     * by an earlier try whose answer was lost, or by another process) is never overwritten but read and returned,
     * for the caller to adopt after checking its metadata. A pool that the PUT found but the read no longer does was
     * being deleted and is gone now: the PUT is sent again, up to {@value #CREATE_ATTEMPTS} times in all.
     */
    public BatchPool createPool(BatchAccountId account, String poolName, BatchPoolSpec spec) {
        Scope scope = scope("creating Batch pool " + poolName + " (" + spec.vmSize() + ") in account "
                + account.accountName(), spec.vmSize(), POOL_ROLE);
        for (int attempt = 1; ; attempt++) {
            Answer answer = send(account.subscriptionId(), HttpMethod.PUT, poolPath(account, poolName),
                    ArmPoolBody.of(spec), Map.of("If-None-Match", "*"), scope);
            if (answer.status() == 412) {
                Optional<BatchPool> found = pool(account, poolName);
                if (found.isPresent()) {
                    return found.get();
                }
                if (attempt < CREATE_ATTEMPTS) {
                    continue;
                }
                throw answer.failure(scope);
            }
            if (answer.status() != 200 && answer.status() != 201) {
                throw answer.failure(scope);
            }
            return pool(answer.json(scope));
        }
    }

    /** The pool, or empty when the account has none of that name. */
    public Optional<BatchPool> pool(BatchAccountId account, String poolName) {
        Scope scope = scope("reading Batch pool " + poolName + " of account " + account.accountName(), "",
                ACCOUNT_ROLE);
        Answer answer = send(account.subscriptionId(), HttpMethod.GET, poolPath(account, poolName), null, Map.of(),
                scope);
        if (answer.isResourceNotFound()) {
            return Optional.empty();
        }
        if (answer.status() != 200) {
            throw answer.failure(scope);
        }
        return Optional.of(pool(answer.json(scope)));
    }

    /**
     * Starts deleting the pool (Batch removes its nodes, then the pool, on its own); false when there was none. The
     * pool reads {@code provisioningState: Deleting} until it is gone.
     */
    public boolean deletePool(BatchAccountId account, String poolName) {
        Scope scope = scope("deleting Batch pool " + poolName + " of account " + account.accountName(), "",
                ACCOUNT_ROLE);
        Answer answer = send(account.subscriptionId(), HttpMethod.DELETE, poolPath(account, poolName), null,
                Map.of(), scope);
        if (answer.status() == 200 || answer.status() == 202) {
            return true;
        }
        if (answer.status() == 204 || answer.isResourceNotFound()) {
            return false;
        }
        throw answer.failure(scope);
    }

    /** Every VM size Batch supports in the region, following {@code nextLink} to the last page. */
    public List<BatchVmSku> virtualMachineSkus(String subscriptionId, String region) {
        Scope scope = scope("listing the VM sizes Batch supports in " + region, "", "the Reader role on the "
                + "subscription");
        List<BatchVmSku> skus = new ArrayList<>();
        String next = "/subscriptions/" + subscriptionId + "/providers/Microsoft.Batch/locations/"
                + URLEncoder.encode(region, StandardCharsets.UTF_8) + "/virtualMachineSkus";
        while (next != null) {
            Answer answer = send(subscriptionId, HttpMethod.GET, next, null, Map.of(), scope);
            if (answer.status() != 200) {
                throw answer.failure(scope);
            }
            JsonNode page = answer.json(scope);
            for (JsonNode sku : page.path("value")) {
                skus.add(sku(sku));
            }
            next = page.path("nextLink").asText("").isEmpty() ? null : page.path("nextLink").asText();
        }
        return skus;
    }

    // ---- reading Resource Manager's shapes ----

    static BatchAccount account(BatchAccountId id, JsonNode body) {
        JsonNode properties = body.path("properties");
        Map<String, Integer> perFamily = new LinkedHashMap<>();
        for (JsonNode family : properties.path("dedicatedCoreQuotaPerVMFamily")) {
            perFamily.put(family.path("name").asText(), family.path("coreQuota").asInt());
        }
        return new BatchAccount(id, body.path("location").asText(""), properties.path("accountEndpoint").asText(""),
                PoolAllocationMode.ofArm(properties.path("poolAllocationMode").asText(null)),
                integer(properties, "dedicatedCoreQuota"), integer(properties, "lowPriorityCoreQuota"), perFamily,
                properties.path("dedicatedCoreQuotaPerVMFamilyEnforced").asBoolean(false),
                integer(properties, "poolQuota"), integer(properties, "activeJobAndJobScheduleQuota"));
    }

    static BatchPool pool(JsonNode body) {
        JsonNode properties = body.path("properties");
        Map<String, String> metadata = new LinkedHashMap<>();
        for (JsonNode pair : properties.path("metadata")) {
            metadata.put(pair.path("name").asText(), pair.path("value").asText());
        }
        List<String> identities = new ArrayList<>();
        body.path("identity").path("userAssignedIdentities").fieldNames().forEachRemaining(identities::add);
        return new BatchPool(body.path("name").asText(), properties.path("vmSize").asText(""),
                properties.path("provisioningState").asText(""), properties.path("allocationState").asText(""),
                metadata, identities, properties.path("currentDedicatedNodes").asInt(0),
                properties.path("currentLowPriorityNodes").asInt(0));
    }

    static BatchVmSku sku(JsonNode sku) {
        Map<String, String> capabilities = new LinkedHashMap<>();
        for (JsonNode capability : sku.path("capabilities")) {
            capabilities.put(capability.path("name").asText(), capability.path("value").asText());
        }
        Optional<Instant> endOfLife = Optional.empty();
        String eol = sku.path("batchSupportEndOfLife").asText("");
        if (!eol.isEmpty()) {
            try {
                endOfLife = Optional.of(Instant.parse(eol));
            } catch (DateTimeParseException e) {
                endOfLife = Optional.of(java.time.OffsetDateTime.parse(eol).toInstant());
            }
        }
        return new BatchVmSku(sku.path("name").asText(), sku.path("familyName").asText(""), capabilities, endOfLife);
    }

    private static OptionalInt integer(JsonNode properties, String name) {
        JsonNode value = properties.get(name);
        return value == null || !value.canConvertToInt() ? OptionalInt.empty() : OptionalInt.of(value.asInt());
    }

    // ---- the transport ----

    private static String poolPath(BatchAccountId account, String poolName) {
        return account.path() + "/pools/" + URLEncoder.encode(poolName, StandardCharsets.UTF_8);
    }

    private static Scope scope(String action, String vmSize, String role) {
        return new Scope(action, vmSize, "the account's region", role);
    }

    private Answer send(String subscriptionId, HttpMethod method, String pathOrUrl, ObjectNode body,
            Map<String, String> headers, Scope scope) {
        try {
            ComputeManagementClient client = clients.computeIfAbsent(subscriptionId,
                    subscription -> connector.connect(subscription).serviceClient());
            HttpPipeline pipeline = client.getHttpPipeline();
            HttpRequest request = new HttpRequest(method, url(client.getEndpoint(), pathOrUrl));
            headers.forEach(request::setHeader);
            if (body != null) {
                request.setHeader("Content-Type", "application/json").setBody(JSON.writeValueAsBytes(body));
            }
            try (HttpResponse response = pipeline.sendSync(request, Context.NONE)) {
                String text = response.getBodyAsBinaryData() == null ? "" : response.getBodyAsBinaryData().toString();
                return new Answer(response, response.getStatusCode(), text);
            }
        } catch (JsonProcessingException e) {
            throw new IllegalStateException("a pool body that Jackson cannot write", e);
        } catch (RuntimeException e) {
            throw ArmFailures.translate(scope, e);
        }
    }

    private static String url(String endpoint, String pathOrUrl) {
        if (pathOrUrl.startsWith("https://")) {
            // A nextLink: Resource Manager's own URL, query included.
            return pathOrUrl;
        }
        String base = endpoint.endsWith("/") ? endpoint.substring(0, endpoint.length() - 1) : endpoint;
        return base + pathOrUrl + "?api-version=" + API_VERSION;
    }

    /** One answer of Resource Manager, its body read whole. */
    private record Answer(HttpResponse response, int status, String body) {
        JsonNode json(Scope scope) {
            try {
                return JSON.readTree(body);
            } catch (JsonProcessingException e) {
                throw new GantryException(ErrorCode.REMOTE_ERROR, "Azure Resource Manager answered " + status
                        + " with a body that is not JSON while " + scope.action(), e);
            }
        }

        ManagementError error() {
            try {
                JsonNode error = JSON.readTree(body.isEmpty() ? "{}" : body).path("error");
                return new ManagementError(error.path("code").asText(""), error.path("message").asText(""));
            } catch (JsonProcessingException e) {
                return new ManagementError("", body);
            }
        }

        /** A 404 for the resource itself, not for the resource group or account it would be in. */
        boolean isResourceNotFound() {
            return status == 404 && ArmFailures.isResourceNotFound(exception());
        }

        GantryException failure(Scope scope) {
            return ArmFailures.translate(scope, exception());
        }

        private ManagementException exception() {
            ManagementError error = error();
            return new ManagementException(error.getMessage().isEmpty() ? "HTTP " + status : error.getMessage(),
                    response, error);
        }
    }
}
