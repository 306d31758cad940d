package dev.gantry.azure.fakes;

import com.azure.core.credential.AccessToken;
import com.azure.core.credential.TokenCredential;
import com.azure.core.management.AzureEnvironment;
import com.azure.resourcemanager.resources.fluentcore.utils.ResourceManagerUtils;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsServer;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.batch.PoolAllocationMode;
import java.io.IOException;
import java.time.Duration;
import java.time.OffsetDateTime;
import java.util.ArrayList;
import java.util.Base64;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import java.util.concurrent.CopyOnWriteArrayList;
import reactor.core.publisher.Mono;

/**
 * A local Azure Resource Manager that answers the REST calls the Azure SDK makes to provision VMs, following the
 * published contract: resource groups (synchronous PUT/GET), and virtual networks, subnets, network security groups,
 * public IPs, NICs, VMs and disks as long-running operations. A PUT answers 201 (or 200 for an update) with an
 * {@code Azure-AsyncOperation} header whose status goes {@code InProgress} then {@code Succeeded}/{@code Failed}; a
 * DELETE answers 202 with a {@code Location} header that answers 202 until done and then 204; deleting a resource that
 * does not exist answers 204. Dependencies are enforced as ARM does: a NIC in use by a VM, a public IP attached to a
 * NIC and a disk attached to a VM cannot be deleted, and deleting a VM honours {@code deleteOption: Delete} on its OS
 * disk and NICs. Scale sets and availability sets are stored, and where VMs may go is checked as Azure checks it
 * ({@link PlacementRules}: one placement group holds at most 100 VMs, an availability set 200 and no zones, a VM joins
 * a set only when it is created, a scale set's VMs are in its zones); the instances of Uniform scale sets follow
 * their capacity, with their disks, NICs and public IPs, and can be listed, deleted and run commands on
 * ({@link ScaleSetsFake}). The node pools of AKS clusters ({@link #managedCluster}) are served by {@link AgentPoolsFake}.
 *
 * <p>It serves HTTPS with {@link LocalHttps}; {@link #connector()} gives the production {@link ArmConnector} an HTTP
 * client that trusts exactly the fakes' certificate, so the SDK's whole pipeline (bearer-token policy, retries,
 * pollers) runs.
 */
public final class ArmFake implements AutoCloseable {
    /**
     * The public key Run Command prints for a VM unless told otherwise (OpenSSH's test key
     * {@code regress/unittests/sshkey/testdata/ed25519_1.pub}), and its fingerprint.
     */
    public static final String DEFAULT_HOST_KEY =
            "ssh-ed25519 AAAAC3NzaC1lZDI1NTE5AAAAIC/bdHnFnYBgCjMyEwdjXnrRYpdLEYrXikT4vSBKBAba root@fake";
    /**
     * The prefix Gantry's host-key script prints before each key ({@code HOST_KEY_MARKER} in core, whose test
     * checks that the two agree): the fake answers Run Command as that script would on a real VM.
     */
    public static final String HOST_KEY_MARKER = "gantry-host-key ";
    /** Azure's refusal of a VM for lack of family quota, word for word as ARM writes it. */
    public static final String QUOTA_MESSAGE = "Operation could not be completed as it results in exceeding approved "
            + "standardNDSH100v5Family Cores quota. Additional details - Deployment Model: Resource Manager, "
            + "Location: eastus, Current Limit: 0, Current Usage: 0, Additional Required: 96, (Minimum) New Limit "
            + "Required: 96. Submit a request for Quota increase at https://aka.ms/ProdportalCRP/#blade/"
            + "Microsoft_Azure_Capacity/UsageAndQuota.ReactView/Parameters/... by specifying parameters listed in "
            + "the 'Details' section for deployment to succeed.";
    public static final String SUBSCRIPTION = "11111111-2222-3333-4444-555555555555";
    public static final String TOKEN = "fake-arm-token";
    private static final ObjectMapper JSON = new ObjectMapper();

    /** One request as the fake received it. */
    public record Request(String method, String path, Map<String, String> query, Map<String, String> headers, JsonNode body) {
        public boolean is(String method, String pathSuffix) {
            return this.method.equals(method) && path.toLowerCase(Locale.ROOT).endsWith(pathSuffix.toLowerCase(Locale.ROOT));
        }
    }

    private record Rejection(int status, String code, String message) {
    }

    /** The next {@code left} requests whose path ends with {@code pathSuffix} answer 429 with this Retry-After. */
    private static final class Throttle {
        final String pathSuffix;
        final String retryAfter;
        int left;
        int answered;

        Throttle(String pathSuffix, int left, String retryAfter) {
            this.pathSuffix = pathSuffix.toLowerCase(Locale.ROOT);
            this.left = left;
            this.retryAfter = retryAfter;
        }
    }

    private final class Operation {
        int pollsLeft;
        Runnable onDone;
        /** The operation's result (a POST action's response body), served by its Location URL once done. */
        JsonNode result;
        Optional<Rejection> failure = Optional.empty();
    }

    private final HttpsServer server;
    private final List<Request> requests = new CopyOnWriteArrayList<>();
    private final Map<String, ObjectNode> resources = new LinkedHashMap<>();
    private final Map<String, Operation> operations = new HashMap<>();
    private final Map<String, Rejection> vmCreateRejections = new HashMap<>();
    private final Map<String, Rejection> vmProvisioningFailures = new HashMap<>();
    private final Map<String, String> powerStates = new HashMap<>();
    private final Map<String, Rejection> deleteRejections = new HashMap<>();
    private final Map<String, String> privateIps = new HashMap<>();
    private final Map<String, String> runCommandMessages = new HashMap<>();
    private final Map<String, Rejection> runCommandRejections = new HashMap<>();
    private final List<String> skus = new ArrayList<>();
    private final Map<String, List<String>> usagePages = new HashMap<>();
    private final List<Throttle> throttles = new ArrayList<>();
    private final AgentPoolsFake agentPools = new AgentPoolsFake(this);
    private final BatchArmFake batch = new BatchArmFake(this);
    private final PlacementRules placement = new PlacementRules(this);
    private final ScaleSetsFake scaleSets = new ScaleSetsFake(this);
    private final Map<String, String> replies = new LinkedHashMap<>();
    private final List<String> deniedWrites = new ArrayList<>();
    private int skuPageSize = 2;
    private boolean runCommandLocationOnly;
    private int vmPollsInProgress = 1;
    private int inProgressAnswers;
    private int nextPrivateIp = 4;
    private int nextPublicIp = 10;

    public ArmFake() throws Exception {
        server = LocalHttps.start(this::handle);
        // The SDK's pollers wait 30 s between polls unless told otherwise; this is its own hook for tests.
        ResourceManagerUtils.InternalRuntimeContext.setDelayProvider(delay -> Duration.ofMillis(1));
    }

    public String baseUrl() {
        return LocalHttps.baseUrl(server);
    }

    /**
     * Where the fake serves its cloud metadata document ({@link CloudMetadata}: one cloud named
     * {@code GantryTestCloud} whose Resource Manager is this fake), as a client configured with a cloud metadata URL
     * reads it: {@code https://127.0.0.1:PORT/metadata/endpoints?api-version=2019-05-01}.
     */
    public String metadataUrl() {
        return baseUrl() + CloudMetadata.PATH + "?api-version=" + CloudMetadata.API_VERSION;
    }

    /** The production connector, pointed at this fake with a credential that hands out {@link #TOKEN}. */
    public ArmConnector connector() {
        return connector(request -> Mono.just(new AccessToken(TOKEN, OffsetDateTime.now().plusHours(1))));
    }

    public ArmConnector connector(TokenCredential credential) {
        Map<String, String> endpoints = new HashMap<>(AzureEnvironment.AZURE.getEndpoints());
        endpoints.put("resourceManagerEndpointUrl", baseUrl() + "/");
        return ArmConnector.of(credential, new AzureEnvironment(endpoints), LocalHttps.trustingHttpClient());
    }

    // ---- test controls ----

    /** The NIC of this VM ({@code <vm>-nic}) gets this private address instead of the next one of 10.210.0.0/24. */
    public synchronized void privateIp(String vmName, String address) {
        privateIps.put(nicName(vmName).toLowerCase(Locale.ROOT), address);
    }

    /**
     * Run Command on this VM prints these host public keys (the lines of {@code /etc/ssh/ssh_host_*_key.pub}), as
     * the script Gantry sends prints them, instead of {@link #DEFAULT_HOST_KEY}.
     */
    public synchronized void hostKeys(String vmName, String... publicKeyLines) {
        StringBuilder stdout = new StringBuilder();
        for (String line : publicKeyLines) {
            stdout.append(HOST_KEY_MARKER).append(line.strip()).append('\n');
        }
        runCommandOutput(vmName, stdout.toString(), "");
    }

    /** Run Command on this VM answers with this standard output and error, in the agent's message format. */
    public synchronized void runCommandOutput(String vmName, String stdout, String stderr) {
        runCommandMessages.put(vmName.toLowerCase(Locale.ROOT), "Enable succeeded: \n[stdout]\n" + stdout
                + "\n[stderr]\n" + stderr + "\n");
    }

    /** Run Command on this VM is refused synchronously with this ARM error. */
    public synchronized void rejectRunCommand(String vmName, int status, String code, String message) {
        runCommandRejections.put(vmName.toLowerCase(Locale.ROOT), new Rejection(status, code, message));
    }

    /**
     * The subscription's Resource SKUs ({@code ResourceSkus_List} items as JSON text), served as ARM serves them:
     * {@code $filter=location eq 'R'} applied to each SKU's {@code locations} (case-insensitively, as Azure compares
     * regions), every resource type kept (disks, availability sets, ... beside virtual machines), in pages of
     * {@link #skuPageSize} joined by {@code nextLink}.
     */
    public synchronized void skus(String... skuItems) {
        skus.addAll(List.of(skuItems));
    }

    /**
     * GETs whose path ends with {@code pathSuffix} answer 200 with exactly this body: a published example response
     * replayed unchanged, in place of what the fake would build.
     */
    public synchronized void replay(String pathSuffix, String body) {
        replies.put(pathSuffix.toLowerCase(Locale.ROOT), body);
    }

    /** How many SKUs one page holds (2 unless told, so that every test follows a {@code nextLink}). */
    public synchronized void skuPageSize(int size) {
        skuPageSize = size;
    }

    /**
     * The quota-limited subscription of the capacity tests: {@code Standard_ND96asr_v4} offered in eastus and westus2
     * (zones 1 and 2), its family {@code standardNDASv4_A100Family} with none in use and a vCPU limit of 100 in
     * eastus, where two nodes (192 vCPUs) do not fit, and 400 in westus2.
     */
    public synchronized void ndA100QuotaShortInEastus() {
        Map<String, String> caps = new LinkedHashMap<>();
        caps.put("vCPUs", "96");
        caps.put("MemoryGB", "900");
        caps.put("GPUs", "8");
        caps.put("RdmaEnabled", "True");
        String family = "standardNDASv4_A100Family";
        skus(sku("Standard_ND96asr_v4", family, "eastus", caps, null),
                sku("Standard_ND96asr_v4", family, "westus2", caps, null));
        usages("eastus", "[" + usage(family, "Standard NDASv4_A100 Family vCPUs", 0, 100) + "]");
        usages("westus2", "[" + usage(family, "Standard NDASv4_A100 Family vCPUs", 0, 400) + "]");
    }

    /** The region's compute usages ({@code Usage_List}), one JSON {@code value} array per page, joined by nextLink. */
    public synchronized void usages(String region, String... valuePages) {
        usagePages.put(region.toLowerCase(Locale.ROOT), List.of(valuePages));
    }

    /**
     * The next {@code times} requests whose path ends with {@code pathSuffix} ({@code /skus}, {@code /usages},
     * {@code /runCommand}, ...) answer 429 {@code TooManyRequests} with this {@code Retry-After} (seconds), as ARM
     * throttles a subscription's reads and writes.
     */
    public synchronized void throttle(String pathSuffix, int times, String retryAfter) {
        throttles.add(new Throttle(pathSuffix, times, retryAfter));
    }

    /**
     * Writes (PUT, POST, DELETE) whose path ends with {@code pathSuffix} answer 403 {@code AuthorizationFailed}, as ARM
     * answers an identity without a role that allows them.
     */
    public synchronized void denyWrites(String pathSuffix) {
        deniedWrites.add(pathSuffix.toLowerCase(Locale.ROOT));
    }

    /** How many requests ending with {@code pathSuffix} were answered 429. */
    public synchronized int throttled(String pathSuffix) {
        return throttles.stream().filter(t -> t.pathSuffix.equals(pathSuffix.toLowerCase(Locale.ROOT)))
                .mapToInt(t -> t.answered).sum();
    }

    /**
     * Run Command answers 202 with only a {@code Location} header (no {@code Azure-AsyncOperation}), which ARM does
     * for some VMs: the result is then read from the Location URL once it stops answering 202.
     */
    public synchronized void runCommandLocationOnly() {
        runCommandLocationOnly = true;
    }

    /** The next PUT of this VM answers synchronously with this ARM error (quota, SKU not available, ...). */
    public synchronized void rejectVmCreate(String vmName, int status, String code, String message) {
        vmCreateRejections.put(vmName.toLowerCase(Locale.ROOT), new Rejection(status, code, message));
    }

    /** The PUT of this VM is accepted, but its operation ends {@code Failed} with this error. */
    public synchronized void failVmProvisioning(String vmName, String code, String message) {
        vmProvisioningFailures.put(vmName.toLowerCase(Locale.ROOT), new Rejection(200, code, message));
    }

    /** DELETEs of the resource with this name answer with this ARM error (a lock, for example). */
    public synchronized void rejectDelete(String name, int status, String code, String message) {
        deleteRejections.put(name.toLowerCase(Locale.ROOT), new Rejection(status, code, message));
    }

    public synchronized void setPowerState(String vmName, String state) {
        powerStates.put(vmName.toLowerCase(Locale.ROOT), state);
    }

    /** How many operation polls answered {@code InProgress}, i.e. how often the SDK had to poll again. */
    public synchronized int inProgressAnswers() {
        return inProgressAnswers;
    }

    /**
     * An AKS managed cluster (and its resource group, if missing) running this Kubernetes version, whose node pools
     * the fake serves.
     */
    public synchronized void managedCluster(String resourceGroup, String name, String region, String kubernetesVersion) {
        ensureResourceGroup(resourceGroup, region);
        ObjectNode cluster = JSON.createObjectNode().put("name", name).put("location", region)
                .put("type", AgentPoolsFake.CLUSTER_TYPE);
        cluster.putObject("properties").put("provisioningState", "Succeeded").put("kubernetesVersion", kubernetesVersion);
        seed(resourcePath(resourceGroup, AgentPoolsFake.CLUSTER_TYPE, name), cluster);
    }

    /**
     * A Batch account (and its resource group, if missing) served by the {@code Microsoft.Batch} routes
     * ({@link BatchArmFake}); its model is shared with the Batch data-plane fake.
     */
    public synchronized BatchAccountModel batchAccount(String resourceGroup, String name, String region,
            PoolAllocationMode mode) {
        ensureResourceGroup(resourceGroup, region);
        return batch.register(new BatchAccountModel(SUBSCRIPTION, resourceGroup, name, region, mode));
    }

    /**
     * The VM sizes Batch supports in a region ({@code Location_ListSupportedVirtualMachineSkus} items as JSON text),
     * two a page joined by {@code nextLink}.
     */
    public synchronized void batchVmSkus(String region, String... items) {
        batch.vmSkus(region, List.of(items));
    }

    /** One item of {@code Location_ListSupportedVirtualMachineSkus}, in the published example's shape. */
    public static String batchVmSku(String name, String family, int vCpus, boolean lowPriorityCapable) {
        return "{\"name\":\"" + name + "\",\"familyName\":\"" + family + "\",\"capabilities\":[{\"name\":\"vCPUs\","
                + "\"value\":\"" + vCpus + "\"},{\"name\":\"LowPriorityCapable\",\"value\":\""
                + (lowPriorityCapable ? "True" : "False") + "\"}]}";
    }

    private void ensureResourceGroup(String resourceGroup, String region) {
        String groupPath = "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + resourceGroup;
        if (!resources.containsKey(key(groupPath))) {
            ObjectNode group = JSON.createObjectNode().put("name", resourceGroup).put("location", region)
                    .put("type", "Microsoft.Resources/resourceGroups");
            seed(groupPath, group);
        }
    }

    /** The agent pool as the fake stores it, empty when the cluster has none of that name. */
    public synchronized Optional<ObjectNode> agentPool(String resourceGroup, String cluster, String name) {
        return resource(resourceGroup, AgentPoolsFake.CLUSTER_TYPE, cluster + "/agentPools/" + name)
                .map(ObjectNode::deepCopy);
    }

    /** Stores an agent pool as if created outside Gantry (or by an earlier run); the cluster must exist. */
    public synchronized void seedAgentPool(String resourceGroup, String cluster, ObjectNode pool) {
        String name = pool.path("name").asText();
        pool.put("type", AgentPoolsFake.POOL_TYPE);
        seed(resourcePath(resourceGroup, AgentPoolsFake.CLUSTER_TYPE, cluster + "/agentPools/" + name), pool);
    }

    /**
     * Ends every operation still running, as Azure finishes a creation whether or not anyone polls it: the resources
     * read {@code Succeeded} (or {@code Failed}) from now on, and their status URLs answer so.
     */
    public synchronized void completeOperations() {
        for (Operation operation : operations.values()) {
            operation.pollsLeft = 0;
            if (operation.onDone != null) {
                operation.onDone.run();
                operation.onDone = null;
            }
        }
    }

    // ---- for the fake's parts (AgentPoolsFake) ----

    ObjectNode stored(String path) {
        return resources.get(key(path));
    }

    /** Every stored resource, in creation order. */
    List<ObjectNode> all() {
        return List.copyOf(resources.values());
    }

    /** The VMs created in the availability set of this resource ID, in creation order. */
    public synchronized List<String> availabilitySetMembers(String availabilitySetId) {
        return placement.members("availabilitySet", availabilitySetId).stream().map(vm -> vm.path("name").asText())
                .toList();
    }

    void store(String path, ObjectNode resource) {
        resources.put(key(path), resource);
    }

    void forget(String path) {
        resources.remove(key(path));
    }

    /** The power state of a VM or scale set instance, {@code running} unless {@link #setPowerState} said else. */
    String powerState(String vmName) {
        return powerStates.getOrDefault(vmName.toLowerCase(Locale.ROOT), "running");
    }

    /** The private address of the VM's (or instance's) NIC: the one {@link #privateIp} set, else the next free. */
    String privateAddress(String vmName) {
        String wanted = privateIps.get(nicName(vmName).toLowerCase(Locale.ROOT));
        return wanted != null ? wanted : "10.210.0." + nextPrivateIp++;
    }

    String publicAddress() {
        return "20.51.0." + nextPublicIp++;
    }

    /** The instances of the scale set of this resource ID, by name, lowest instance ID first. */
    public synchronized List<String> scaleSetInstances(String scaleSetId) {
        String prefix = key(scaleSetId + "/virtualMachines/");
        return resources.values().stream()
                .filter(r -> ScaleSetsFake.INSTANCE_TYPE.equals(r.path("type").asText())
                        && key(r.path("id").asText()).startsWith(prefix))
                .sorted(java.util.Comparator.comparingInt(r -> r.path("instanceId").asInt()))
                .map(r -> r.path("name").asText()).toList();
    }

    /** The stored resources whose lower-case path starts with this prefix (lower case), in creation order. */
    List<ObjectNode> storedUnder(String prefix) {
        List<ObjectNode> under = new ArrayList<>();
        resources.forEach((path, resource) -> {
            if (path.startsWith(prefix) && path.indexOf('/', prefix.length()) < 0) {
                under.add(resource);
            }
        });
        return under;
    }

    /**
     * Starts a long-running operation that answers InProgress {@code pollsInProgress} times, then runs
     * {@code onDone} and answers Succeeded; returns its {@code Azure-AsyncOperation} URL in the resource's region.
     */
    String startOperation(String type, ObjectNode resource, Map<String, String> query, int pollsInProgress,
            Runnable onDone) {
        Operation operation = new Operation();
        operation.pollsLeft = pollsInProgress;
        operation.onDone = onDone;
        return operationUrl(type, resource, "operations", register(operation), query);
    }

    public List<Request> requests() {
        return List.copyOf(requests);
    }

    public List<Request> requests(String method, String pathSuffix) {
        return requests.stream().filter(r -> r.is(method, pathSuffix)).toList();
    }

    public synchronized boolean exists(String resourceGroup, String type, String name) {
        return resources.containsKey(key(resourcePath(resourceGroup, type, name)));
    }

    public synchronized Optional<ObjectNode> resource(String resourceGroup, String type, String name) {
        return Optional.ofNullable(resources.get(key(resourcePath(resourceGroup, type, name))));
    }

    /** Stores a resource as if created earlier (outside Gantry or by an earlier run). */
    public synchronized void seed(String path, ObjectNode body) {
        body.put("id", path);
        resources.put(key(path), body);
    }

    public synchronized List<String> resourceIds() {
        return resources.values().stream().map(r -> r.path("id").asText()).toList();
    }

    public static String resourcePath(String resourceGroup, String type, String name) {
        return "/subscriptions/" + SUBSCRIPTION + "/resourceGroups/" + resourceGroup + "/providers/" + type + "/"
                + name;
    }

    @Override
    public void close() {
        server.stop(0);
    }

    /**
     * One VM SKU in the documented {@code ResourceSkus_List} shape, offered in zones 1 and 2 of the region; a
     * restriction reason ({@code NotAvailableForSubscription}, {@code QuotaId}) restricts it in the whole region.
     */
    public static String sku(String name, String family, String region, Map<String, String> capabilities,
            String restrictionReason) {
        return sku(name, family, region, capabilities, restrictionReason, List.of("1", "2"));
    }

    /**
     * The same, offered in the given zones of the region; none for a region without zones (or a size Azure does not
     * place in zones there), whose VMs are regional.
     */
    public static String sku(String name, String family, String region, Map<String, String> capabilities,
            String restrictionReason, List<String> zones) {
        StringBuilder caps = new StringBuilder();
        capabilities.forEach((key, value) -> caps.append(caps.length() == 0 ? "" : ",")
                .append("{\"name\":\"").append(key).append("\",\"value\":\"").append(value).append("\"}"));
        String restrictions = restrictionReason == null ? "[]"
                : "[{\"type\":\"Location\",\"values\":[\"" + region + "\"],\"restrictionInfo\":{\"locations\":[\""
                + region + "\"]},\"reasonCode\":\"" + restrictionReason + "\"}]";
        return "{\"resourceType\":\"virtualMachines\",\"name\":\"" + name + "\",\"tier\":\"Standard\",\"size\":\""
                + name.substring("Standard_".length()) + "\",\"family\":\"" + family + "\",\"locations\":[\"" + region
                + "\"],\"locationInfo\":[{\"location\":\"" + region + "\",\"zones\":["
                + String.join(",", zones.stream().map(zone -> "\"" + zone + "\"").toList()) + "],\"zoneDetails\":[]}],"
                + "\"capabilities\":[" + caps + "],\"restrictions\":" + restrictions + "}";
    }

    /** One usage in the documented {@code Usage_List} shape. */
    public static String usage(String name, String localized, int current, long limit) {
        return "{\"unit\":\"Count\",\"currentValue\":" + current + ",\"limit\":" + limit + ",\"name\":{\"value\":\""
                + name + "\",\"localizedValue\":\"" + localized + "\"}}";
    }

    /** The NIC name Gantry gives a VM's network interface ({@code VmTemplate.nicName} in core). */
    private static String nicName(String vmName) {
        return vmName + "-nic";
    }

    // ---- protocol ----

    private synchronized void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            String path = exchange.getRequestURI().getRawPath();
            Map<String, String> query = LocalHttps.query(exchange.getRequestURI().getRawQuery());
            Map<String, String> headers = new LinkedHashMap<>();
            exchange.getRequestHeaders().forEach((name, values) -> headers.put(name.toLowerCase(Locale.ROOT),
                    String.join(",", values)));
            byte[] raw = exchange.getRequestBody().readAllBytes();
            JsonNode body = raw.length == 0 ? null : JSON.readTree(raw);
            requests.add(new Request(exchange.getRequestMethod(), path, query, headers, body));
            if (path.equals(CloudMetadata.PATH)) {
                cloudMetadata(exchange, query);
                return;
            }
            if (!acceptsToken(headers.get("authorization"))) {
                exchange.getResponseHeaders().add("WWW-Authenticate", "Bearer authorization_uri=\""
                        + "https://login.microsoftonline.com/common\", error=\"invalid_token\"");
                error(exchange, 401, "InvalidAuthenticationToken", "The access token is invalid.");
                return;
            }
            if (!query.containsKey("api-version")) {
                error(exchange, 400, "MissingApiVersionParameter",
                        "The api-version query parameter (?api-version=) is required for all requests.");
                return;
            }
            for (Throttle throttle : throttles) {
                if (throttle.left > 0 && path.toLowerCase(Locale.ROOT).endsWith(throttle.pathSuffix)) {
                    throttle.left--;
                    throttle.answered++;
                    exchange.getResponseHeaders().add("Retry-After", throttle.retryAfter);
                    error(exchange, 429, "TooManyRequests", "The request is being throttled as the limit has been "
                            + "reached for operation type - Read_ObservationWindow_00:05:00.");
                    return;
                }
            }
            String lowerPath = path.toLowerCase(Locale.ROOT);
            if (!exchange.getRequestMethod().equals("GET") && deniedWrites.stream().anyMatch(lowerPath::endsWith)) {
                error(exchange, 403, "AuthorizationFailed", "The client 'gantry@example.com' with object id "
                        + "'00000000-0000-0000-0000-0000000000aa' does not have authorization to perform action on "
                        + "scope '" + path + "' or the scope is invalid. If access was recently granted, please "
                        + "refresh your credentials.");
                return;
            }
            route(exchange, exchange.getRequestMethod(), path, query, body);
        }
    }

    private void route(HttpExchange exchange, String method, String path, Map<String, String> query, JsonNode body)
            throws IOException {
        String[] s = path.substring(1).split("/");
        for (Map.Entry<String, String> reply : replies.entrySet()) {
            if (method.equals("GET") && path.toLowerCase(Locale.ROOT).endsWith(reply.getKey())) {
                byte[] bytes = reply.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
                exchange.sendResponseHeaders(200, bytes.length);
                exchange.getResponseBody().write(bytes);
                return;
            }
        }
        if (s.length == 5 && s[0].equals("subscriptions") && s[2].equals("providers")
                && s[3].equalsIgnoreCase("Microsoft.Compute") && s[4].equals("skus")) {
            resourceSkus(exchange, query);
            return;
        }
        if (s.length == 7 && s[0].equals("subscriptions") && s[2].equals("providers")
                && s[3].equalsIgnoreCase("Microsoft.Compute") && s[4].equals("locations") && s[6].equals("usages")) {
            usages(exchange, s[5], query);
            return;
        }
        if (s.length == 8 && s[2].equals("providers") && s[4].equals("locations")) {
            poll(exchange, s[6], s[7]);
            return;
        }
        if (s.length == 7 && s[0].equals("subscriptions") && s[2].equals("providers")
                && s[3].equalsIgnoreCase("Microsoft.Batch") && s[4].equals("locations")
                && s[6].equals("virtualMachineSkus")) {
            batch.skus(exchange, s[5], query);
            return;
        }
        if (s.length < 4 || !s[0].equals("subscriptions") || !s[2].equalsIgnoreCase("resourceGroups")) {
            error(exchange, 404, "InvalidResourceType", "The fake does not serve " + method + " " + path);
            return;
        }
        String groupPath = "/subscriptions/" + s[1] + "/resourceGroups/" + s[3];
        if (s.length == 4) {
            resourceGroup(exchange, method, groupPath, s[3], body);
            return;
        }
        if (!resources.containsKey(key(groupPath))) {
            error(exchange, 404, "ResourceGroupNotFound", "Resource group '" + s[3] + "' could not be found.");
            return;
        }
        if (s.length >= 8 && s[4].equals("providers") && s[5].equalsIgnoreCase("Microsoft.Batch")
                && s[6].equalsIgnoreCase("batchAccounts")) {
            batch.handle(exchange, method, s, query, body);
            return;
        }
        if (s.length >= 9 && s[4].equals("providers") && s[5].equalsIgnoreCase("Microsoft.ContainerService")
                && s[6].equalsIgnoreCase("managedClusters") && s[8].equalsIgnoreCase("agentPools")) {
            agentPools.handle(exchange, method, s, query, (ObjectNode) body);
            return;
        }
        if (s.length == 9 && s[4].equals("providers") && s[6].equalsIgnoreCase("virtualMachines")
                && s[8].equalsIgnoreCase("runCommand")) {
            if (!method.equals("POST")) {
                error(exchange, 405, "MethodNotAllowed", method + " is not supported on " + path);
            } else {
                runCommand(exchange, path.substring(0, path.lastIndexOf('/')), s[7], body, query);
            }
            return;
        }
        if (s.length == 11 && s[4].equals("providers") && s[6].equalsIgnoreCase("virtualMachineScaleSets")
                && s[8].equalsIgnoreCase("virtualMachines") && s[10].equalsIgnoreCase("runCommand")) {
            String instancePath = path.substring(0, path.lastIndexOf('/'));
            ObjectNode instance = resources.get(key(instancePath));
            if (!method.equals("POST")) {
                error(exchange, 405, "MethodNotAllowed", method + " is not supported on " + path);
            } else {
                runCommand(exchange, instancePath, instance == null ? s[7] + "_" + s[9]
                        : instance.path("name").asText(), body, query);
            }
            return;
        }
        if (s.length == 9 && s[4].equals("providers") && s[6].equalsIgnoreCase("virtualMachineScaleSets")) {
            scaleSets.handle(exchange, method, path, s, query, body);
            return;
        }
        if (s.length != 8 && s.length != 10 || !s[4].equals("providers")) {
            error(exchange, 404, "InvalidResourceType", "The fake does not serve " + method + " " + path);
            return;
        }
        String type = s[5] + "/" + s[6] + (s.length == 10 ? "/" + s[8] : "");
        String name = s[s.length - 1];
        switch (method) {
            case "GET" -> get(exchange, path, type, name, query);
            case "PUT" -> put(exchange, path, type, name, (ObjectNode) body, query);
            case "DELETE" -> delete(exchange, path, type, query);
            default -> error(exchange, 405, "MethodNotAllowed", method + " is not supported on " + path);
        }
    }

    /** The cloud metadata document: no authentication, as Resource Manager's own; GET with an api-version. */
    private void cloudMetadata(HttpExchange exchange, Map<String, String> query) throws IOException {
        if (!exchange.getRequestMethod().equals("GET")) {
            error(exchange, 405, "MethodNotAllowed", exchange.getRequestMethod() + " is not supported on "
                    + CloudMetadata.PATH + "; GET it");
        } else if (!query.containsKey("api-version")) {
            error(exchange, 400, "MissingApiVersionParameter",
                    "The api-version query parameter (?api-version=) is required for all requests.");
        } else {
            send(exchange, 200, CloudMetadata.document(JSON, baseUrl()));
        }
    }

    private void resourceGroup(HttpExchange exchange, String method, String path, String name, JsonNode body)
            throws IOException {
        ObjectNode existing = resources.get(key(path));
        switch (method) {
            case "GET", "HEAD" -> {
                if (existing == null) {
                    error(exchange, 404, "ResourceGroupNotFound", "Resource group '" + name + "' could not be found.");
                } else {
                    send(exchange, 200, existing);
                }
            }
            case "PUT" -> {
                ObjectNode group = ((ObjectNode) body).deepCopy();
                group.put("id", path).put("name", name).put("type", "Microsoft.Resources/resourceGroups");
                group.putObject("properties").put("provisioningState", "Succeeded");
                resources.put(key(path), group);
                send(exchange, existing == null ? 201 : 200, group);
            }
            default -> error(exchange, 405, "MethodNotAllowed", method + " is not supported on " + path);
        }
    }

    private void get(HttpExchange exchange, String path, String type, String name, Map<String, String> query)
            throws IOException {
        ObjectNode resource = resources.get(key(path));
        if (resource == null) {
            error(exchange, 404, "ResourceNotFound", "The Resource '" + type + "/" + name
                    + "' under resource group was not found.");
            return;
        }
        ObjectNode answer = resource.deepCopy();
        if (type.equals("Microsoft.Compute/virtualMachines") && "instanceView".equals(query.get("$expand"))) {
            String state = answer.path("properties").path("provisioningState").asText().toLowerCase(Locale.ROOT);
            ArrayNode statuses = ((ObjectNode) answer.get("properties")).putObject("instanceView").putArray("statuses");
            statuses.addObject().put("code", "ProvisioningState/" + state);
            statuses.addObject().put("code", "PowerState/" + powerState(name));
        }
        send(exchange, 200, answer);
    }

    private void put(HttpExchange exchange, String path, String type, String name, ObjectNode body,
            Map<String, String> query) throws IOException {
        if (body == null || !body.hasNonNull("location") && !type.endsWith("/subnets")) {
            error(exchange, 400, "LocationRequired", "The location property is required for this definition.");
            return;
        }
        boolean existed = resources.containsKey(key(path));
        ObjectNode resource = body.deepCopy();
        resource.put("id", path).put("name", name).put("type", type);
        ObjectNode properties = resource.has("properties") ? (ObjectNode) resource.get("properties")
                : resource.putObject("properties");
        Operation operation = new Operation();
        String problem = switch (type) {
            case "Microsoft.Network/virtualNetworks" -> virtualNetwork(path, properties);
            case "Microsoft.Network/virtualNetworks/subnets" -> null;
            case "Microsoft.Network/networkSecurityGroups" -> null;
            case "Microsoft.Network/publicIPAddresses" -> {
                properties.put("ipAddress", publicAddress());
                yield null;
            }
            case "Microsoft.Network/networkInterfaces" -> networkInterface(path, properties);
            case "Microsoft.Compute/virtualMachines" -> virtualMachine(exchange, path, name, resource, operation);
            case ScaleSetsFake.SET_TYPE -> {
                String refused = placement.scaleSet(path, resource);
                refused = refused != null ? refused : scaleSets.profile(resource);
                operation.onDone = () -> scaleSets.reconcile(path, resource);
                yield refused;
            }
            case "Microsoft.Compute/availabilitySets" -> placement.availabilitySet(resource);
            default -> "The fake does not create " + type;
        };
        if (problem != null) {
            if (problem.startsWith(PlacementRules.NOT_ALLOWED)) {
                error(exchange, 409, "OperationNotAllowed", problem.substring(PlacementRules.NOT_ALLOWED.length()));
            } else if (!problem.isEmpty()) {
                error(exchange, 400, problem.startsWith("NicInUse") ? "NicInUse" : "InvalidParameter", problem);
            }
            return;
        }
        if (type.equals("Microsoft.Compute/availabilitySets")) {
            // The contract's AvailabilitySets_CreateOrUpdate is synchronous: 200 with the set, no provisioning state.
            resources.put(key(path), resource);
            send(exchange, 200, resource);
            return;
        }
        properties.put("provisioningState", existed ? "Updating" : "Creating");
        resources.put(key(path), resource);
        if (operation.onDone == null) {
            operation.onDone = () -> {};
        }
        Runnable done = operation.onDone;
        operation.onDone = () -> {
            done.run();
            properties.put("provisioningState", operation.failure.isPresent() ? "Failed" : "Succeeded");
        };
        String id = register(operation);
        exchange.getResponseHeaders().add("Azure-AsyncOperation", operationUrl(type, resource, "operations", id,
                query));
        send(exchange, existed ? 200 : 201, resource);
    }

    private String virtualNetwork(String path, ObjectNode properties) {
        ArrayNode subnets = properties.withArray("subnets");
        for (JsonNode subnet : subnets) {
            String subnetPath = path + "/subnets/" + subnet.path("name").asText();
            ObjectNode stored = ((ObjectNode) subnet);
            stored.put("id", subnetPath).put("type", "Microsoft.Network/virtualNetworks/subnets");
            stored.withObjectProperty("properties").put("provisioningState", "Succeeded");
            resources.put(key(subnetPath), stored.deepCopy());
        }
        return null;
    }

    private String networkInterface(String path, ObjectNode properties) {
        for (JsonNode configuration : properties.withArray("ipConfigurations")) {
            ObjectNode ipProperties = ((ObjectNode) configuration).withObjectProperty("properties");
            String subnetId = ipProperties.path("subnet").path("id").asText();
            if (!resources.containsKey(key(subnetId))) {
                return "Subnet '" + subnetId + "' referenced by the network interface does not exist.";
            }
            String publicIpId = ipProperties.path("publicIPAddress").path("id").asText(null);
            if (publicIpId != null && !resources.containsKey(key(publicIpId))) {
                return "Public IP address '" + publicIpId + "' referenced by the network interface does not exist.";
            }
            String configurationId = path + "/ipConfigurations/" + configuration.path("name").asText();
            ((ObjectNode) configuration).put("id", configurationId);
            String wanted = privateIps.get(path.substring(path.lastIndexOf('/') + 1).toLowerCase(Locale.ROOT));
            ipProperties.put("privateIPAddress", wanted != null ? wanted : "10.210.0." + nextPrivateIp++);
            if (publicIpId != null) {
                resources.get(key(publicIpId)).withObjectProperty("properties").putObject("ipConfiguration")
                        .put("id", configurationId);
            }
        }
        String groupId = properties.path("networkSecurityGroup").path("id").asText(null);
        if (groupId != null && !resources.containsKey(key(groupId))) {
            return "Network security group '" + groupId + "' referenced by the network interface does not exist.";
        }
        return null;
    }

    /** Validates and stores a VM; returns a problem for a 400, "" when a response was already sent. */
    private String virtualMachine(HttpExchange exchange, String path, String name, ObjectNode vm, Operation operation) {
        Rejection rejection = vmCreateRejections.get(name.toLowerCase(Locale.ROOT));
        if (rejection != null) {
            try {
                error(exchange, rejection.status(), rejection.code(), rejection.message());
            } catch (IOException e) {
                throw new IllegalStateException(e);
            }
            return "";
        }
        JsonNode properties = vm.path("properties");
        if (properties.path("hardwareProfile").path("vmSize").asText().isEmpty()) {
            return "Required parameter 'hardwareProfile.vmSize' is missing (null).";
        }
        JsonNode os = properties.path("osProfile");
        if (os.path("adminUsername").asText().isEmpty()) {
            return "Required parameter 'osProfile.adminUsername' is missing (null).";
        }
        if (os.path("linuxConfiguration").path("disablePasswordAuthentication").asBoolean(false)
                && os.path("linuxConfiguration").path("ssh").path("publicKeys").isEmpty()) {
            return "Authentication using either SSH or by user name and password must be enabled in Linux profile.";
        }
        if (os.has("customData")) {
            try {
                Base64.getDecoder().decode(os.path("customData").asText());
            } catch (IllegalArgumentException e) {
                return "Custom data in OSProfile must be in Base64 encoding and with a maximum length of 87380 "
                        + "characters.";
            }
        }
        String misplaced = placement.vm(path, vm);
        if (misplaced != null) {
            return misplaced;
        }
        List<ObjectNode> nics = new ArrayList<>();
        for (JsonNode reference : properties.path("networkProfile").path("networkInterfaces")) {
            ObjectNode nic = resources.get(key(reference.path("id").asText()));
            if (nic == null) {
                return "Resource '" + reference.path("id").asText() + "' was not found.";
            }
            String user = nic.path("properties").path("virtualMachine").path("id").asText("");
            if (!user.isEmpty() && !user.equalsIgnoreCase(path)) {
                return "NicInUse: Network Interface " + nic.path("id").asText() + " is used by existing resource "
                        + user + ".";
            }
            nics.add(nic);
        }
        ObjectNode mutable = (ObjectNode) properties;
        // Custom data and passwords are write-only: ARM never returns them.
        mutable.withObjectProperty("osProfile").remove(List.of("customData", "adminPassword"));
        mutable.put("vmId", UUID.randomUUID().toString());
        mutable.put("timeCreated", "2026-11-29T12:00:00+00:00");
        ObjectNode osDisk = mutable.withObjectProperty("storageProfile").withObjectProperty("osDisk");
        String diskName = osDisk.path("name").asText(name + "_OsDisk_1");
        String diskPath = path.substring(0, path.indexOf("/providers/")) + "/providers/Microsoft.Compute/disks/"
                + diskName;
        osDisk.put("name", diskName);
        osDisk.withObjectProperty("managedDisk").put("id", diskPath);
        ObjectNode disk = JSON.createObjectNode();
        disk.put("id", diskPath).put("name", diskName).put("type", "Microsoft.Compute/disks")
                .put("location", vm.path("location").asText()).put("managedBy", path);
        disk.putObject("properties").put("provisioningState", "Succeeded");
        resources.put(key(diskPath), disk);
        for (ObjectNode nic : nics) {
            nic.withObjectProperty("properties").putObject("virtualMachine").put("id", path);
        }
        operation.pollsLeft = vmPollsInProgress;
        Rejection failure = vmProvisioningFailures.get(name.toLowerCase(Locale.ROOT));
        operation.failure = Optional.ofNullable(failure);
        return null;
    }

    /**
     * {@code POST .../virtualMachines/{vm}/runCommand}: a long-running action. 202 with {@code Azure-AsyncOperation}
     * and {@code Location}; the operation goes InProgress then Succeeded, and the Location URL then answers 200 with
     * the {@code RunCommandResult}: {@code value[]} of instance view statuses whose message carries the script's
     * {@code [stdout]} and {@code [stderr]}.
     */
    private void runCommand(HttpExchange exchange, String vmPath, String vmName, JsonNode body,
            Map<String, String> query) throws IOException {
        ObjectNode vm = resources.get(key(vmPath));
        if (vm == null) {
            error(exchange, 404, "ResourceNotFound", "The Resource 'Microsoft.Compute/virtualMachines/" + vmName
                    + "' under resource group was not found.");
            return;
        }
        Rejection rejection = runCommandRejections.get(vmName.toLowerCase(Locale.ROOT));
        if (rejection != null) {
            error(exchange, rejection.status(), rejection.code(), rejection.message());
            return;
        }
        if (body == null || body.path("commandId").asText().isEmpty()) {
            error(exchange, 400, "InvalidParameter", "Required parameter 'commandId' is missing (null).");
            return;
        }
        if (!body.path("commandId").asText().equals("RunShellScript")) {
            error(exchange, 400, "InvalidParameter", "The command id '" + body.path("commandId").asText()
                    + "' is not valid for a Linux virtual machine.");
            return;
        }
        if (!body.path("script").isArray() || body.path("script").isEmpty()) {
            error(exchange, 400, "InvalidParameter", "The script of a RunShellScript command must not be empty.");
            return;
        }
        if (!"Succeeded".equals(vm.path("properties").path("provisioningState").asText())) {
            error(exchange, 409, "OperationNotAllowed", "The operation requires the VM to be running.");
            return;
        }
        String message = runCommandMessages.getOrDefault(vmName.toLowerCase(Locale.ROOT),
                "Enable succeeded: \n[stdout]\n" + HOST_KEY_MARKER + DEFAULT_HOST_KEY + "\n\n[stderr]\n\n");
        ObjectNode result = JSON.createObjectNode();
        result.putArray("value").addObject()
                .put("code", "ProvisioningState/succeeded")
                .put("level", "Info")
                .put("displayStatus", "Provisioning succeeded")
                .put("message", message);
        Operation operation = new Operation();
        operation.pollsLeft = 1;
        operation.result = result;
        String id = register(operation);
        if (!runCommandLocationOnly) {
            exchange.getResponseHeaders().add("Azure-AsyncOperation", operationUrl(
                    "Microsoft.Compute/virtualMachines", vm, "operations", id, query));
        }
        exchange.getResponseHeaders().add("Location", operationUrl("Microsoft.Compute/virtualMachines", vm,
                "operationResults", id, query));
        send(exchange, 202, null);
    }

    private void delete(HttpExchange exchange, String path, String type, Map<String, String> query)
            throws IOException {
        ObjectNode resource = resources.get(key(path));
        if (resource == null) {
            send(exchange, 204, null);
            return;
        }
        Rejection rejection = deleteRejections.get(resource.path("name").asText().toLowerCase(Locale.ROOT));
        if (rejection != null) {
            error(exchange, rejection.status(), rejection.code(), rejection.message());
            return;
        }
        if (type.equals("Microsoft.Compute/availabilitySets")) {
            // The contract's AvailabilitySets_Delete is synchronous: 200 (or 204 when there was none).
            resources.remove(key(path));
            send(exchange, 200, null);
            return;
        }
        JsonNode properties = resource.path("properties");
        switch (type) {
            case "Microsoft.Network/networkInterfaces" -> {
                String user = properties.path("virtualMachine").path("id").asText("");
                if (!user.isEmpty()) {
                    error(exchange, 400, "NicInUse", "Network Interface " + path + " is used by existing resource "
                            + user + ". In order to delete the network interface, it must be dissociated from the "
                            + "resource.");
                    return;
                }
            }
            case "Microsoft.Network/publicIPAddresses" -> {
                if (properties.has("ipConfiguration")) {
                    error(exchange, 400, "PublicIPAddressCannotBeDeleted", "Public IP address " + path
                            + " can not be deleted since it is still allocated to resource "
                            + properties.path("ipConfiguration").path("id").asText() + ".");
                    return;
                }
            }
            case "Microsoft.Compute/disks" -> {
                if (resource.hasNonNull("managedBy")) {
                    error(exchange, 409, "OperationNotAllowed", "Disk " + resource.path("name").asText()
                            + " is attached to VM " + resource.path("managedBy").asText() + ".");
                    return;
                }
            }
            default -> {
            }
        }
        Operation operation = new Operation();
        operation.onDone = () -> remove(path, type, resource);
        String id = register(operation);
        exchange.getResponseHeaders().add("Location", operationUrl(type, resource, "operationResults", id, query));
        send(exchange, 202, null);
    }

    private void remove(String path, String type, ObjectNode resource) {
        resources.remove(key(path));
        JsonNode properties = resource.path("properties");
        switch (type) {
            case "Microsoft.Compute/virtualMachines" -> {
                JsonNode osDisk = properties.path("storageProfile").path("osDisk");
                String diskKey = key(osDisk.path("managedDisk").path("id").asText());
                if ("Delete".equalsIgnoreCase(osDisk.path("deleteOption").asText())) {
                    resources.remove(diskKey);
                } else if (resources.containsKey(diskKey)) {
                    resources.get(diskKey).remove("managedBy");
                }
                for (JsonNode reference : properties.path("networkProfile").path("networkInterfaces")) {
                    String nicId = reference.path("id").asText();
                    ObjectNode nic = resources.get(key(nicId));
                    if (nic == null) {
                        continue;
                    }
                    nic.withObjectProperty("properties").remove("virtualMachine");
                    if ("Delete".equalsIgnoreCase(reference.path("properties").path("deleteOption").asText())) {
                        remove(nicId, "Microsoft.Network/networkInterfaces", nic);
                    }
                }
            }
            case ScaleSetsFake.SET_TYPE -> scaleSets.removeAll(path);
            case "Microsoft.Network/networkInterfaces" -> {
                for (JsonNode configuration : properties.path("ipConfigurations")) {
                    String ipId = configuration.path("properties").path("publicIPAddress").path("id").asText("");
                    ObjectNode ip = resources.get(key(ipId));
                    if (ip != null) {
                        ip.withObjectProperty("properties").remove("ipConfiguration");
                    }
                }
            }
            default -> {
            }
        }
    }

    private void resourceSkus(HttpExchange exchange, Map<String, String> query) throws IOException {
        String filter = query.getOrDefault("$filter", "");
        java.util.regex.Matcher location = java.util.regex.Pattern.compile("location eq '([^']*)'").matcher(filter);
        if (!filter.isEmpty() && !location.matches()) {
            error(exchange, 400, "InvalidFilter", "The filter '" + filter + "' is not supported; only location eq"
                    + " 'REGION' is.");
            return;
        }
        List<JsonNode> matching = new ArrayList<>();
        for (String item : skus) {
            JsonNode sku = JSON.readTree(item);
            boolean inRegion = !location.matches();
            for (JsonNode region : sku.path("locations")) {
                inRegion |= region.asText().equalsIgnoreCase(location.group(1));
            }
            if (inRegion) {
                matching.add(sku);
            }
        }
        page(exchange, matching, query, skuPageSize);
    }

    private void usages(HttpExchange exchange, String region, Map<String, String> query) throws IOException {
        List<String> pages = usagePages.getOrDefault(region.toLowerCase(Locale.ROOT), List.of("[]"));
        int page = Integer.parseInt(query.getOrDefault("page", "0"));
        ObjectNode body = JSON.createObjectNode();
        body.set("value", JSON.readTree(pages.get(page)));
        if (page + 1 < pages.size()) {
            body.put("nextLink", nextLink(exchange, query, page + 1));
        }
        send(exchange, 200, body);
    }

    /** One page of a list, with ARM's {@code nextLink}: the same request with the page to read next. */
    void page(HttpExchange exchange, List<JsonNode> items, Map<String, String> query, int size)
            throws IOException {
        int page = Integer.parseInt(query.getOrDefault("page", "0"));
        ObjectNode body = JSON.createObjectNode();
        ArrayNode value = body.putArray("value");
        items.stream().skip((long) page * size).limit(size).forEach(value::add);
        if ((long) (page + 1) * size < items.size()) {
            body.put("nextLink", nextLink(exchange, query, page + 1));
        }
        send(exchange, 200, body);
    }

    private String nextLink(HttpExchange exchange, Map<String, String> query, int page) {
        StringBuilder link = new StringBuilder(baseUrl()).append(exchange.getRequestURI().getRawPath()).append('?');
        Map<String, String> next = new java.util.TreeMap<>(query);
        next.put("page", Integer.toString(page));
        next.forEach((name, value) -> link.append(link.charAt(link.length() - 1) == '?' ? "" : "&")
                .append(java.net.URLEncoder.encode(name, java.nio.charset.StandardCharsets.UTF_8)).append('=')
                .append(java.net.URLEncoder.encode(value, java.nio.charset.StandardCharsets.UTF_8)
                        .replace("+", "%20")));
        return link.toString();
    }

    private String register(Operation operation) {
        String id = UUID.randomUUID().toString();
        operations.put(id, operation);
        return id;
    }

    private String operationUrl(String type, ObjectNode resource, String kind, String id, Map<String, String> query) {
        String namespace = type.substring(0, type.indexOf('/'));
        String location = resource.path("location").asText("eastus");
        return baseUrl() + "/subscriptions/" + SUBSCRIPTION + "/providers/" + namespace + "/locations/" + location
                + "/" + kind + "/" + id + "?api-version=" + query.get("api-version");
    }

    private void poll(HttpExchange exchange, String kind, String id) throws IOException {
        Operation operation = operations.get(id);
        if (operation == null) {
            error(exchange, 404, "ResourceNotFound", "Operation " + id + " was not found.");
            return;
        }
        boolean done = operation.pollsLeft-- <= 0;
        if (done && operation.onDone != null) {
            operation.onDone.run();
            operation.onDone = null;
        }
        if (kind.equals("operationResults")) {
            if (!done) {
                exchange.getResponseHeaders().add("Location", baseUrl() + exchange.getRequestURI());
            }
            if (done && operation.result != null) {
                send(exchange, 200, operation.result);
            } else {
                send(exchange, done ? 204 : 202, null);
            }
            return;
        }
        ObjectNode status = JSON.createObjectNode();
        status.put("name", id).put("startTime", "2026-11-29T12:00:00+00:00");
        if (!done) {
            inProgressAnswers++;
            status.put("status", "InProgress");
        } else if (operation.failure.isPresent()) {
            status.put("status", "Failed");
            status.putObject("error").put("code", operation.failure.get().code())
                    .put("message", operation.failure.get().message());
        } else {
            status.put("status", "Succeeded");
            if (operation.result != null) {
                status.putObject("properties").set("output", operation.result);
            }
        }
        send(exchange, 200, status);
    }

    static void error(HttpExchange exchange, int status, String code, String message) throws IOException {
        ObjectNode body = JSON.createObjectNode();
        body.putObject("error").put("code", code).put("message", message);
        send(exchange, status, body);
    }

    static void send(HttpExchange exchange, int status, JsonNode body) throws IOException {
        exchange.getResponseHeaders().add("x-ms-request-id", UUID.randomUUID().toString());
        if (body == null) {
            exchange.sendResponseHeaders(status, -1);
            return;
        }
        byte[] bytes = JSON.writeValueAsBytes(body);
        exchange.getResponseHeaders().add("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        exchange.getResponseBody().write(bytes);
    }

    /** {@link #TOKEN}, or a {@link FakeTokenIssuer} token for a Resource Manager scope. */
    private static boolean acceptsToken(String authorization) {
        return ("Bearer " + TOKEN).equals(authorization) || FakeTokenIssuer.scopeOf(authorization)
                .filter(scope -> scope.startsWith("https://management.")).isPresent();
    }

    private static String key(String path) {
        return path.toLowerCase(Locale.ROOT);
    }
}
