package dev.gantry.backend.batch.internal;

import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * The Batch backend's settings, bound once from {@code backends.batch.*}; every problem is reported at once, each
 * naming its key, where it was written, the value given and the fix. Binding contacts nothing.
 *
 * @param accounts the Batch accounts, one per region
 * @param poolPrefix the start of every pool id Gantry makes (and of its jobs' ids)
 * @param existingPools pools someone else made, used for plans of their VM size, never resized or deleted
 * @param maxNodesPerPool the most nodes autoscale gives a pool Gantry makes
 * @param poolIdentity the Resource Manager id of the user-assigned identity the pools Gantry makes carry
 * @param secretsContainer the blob container a task's secrets are put in for the task to fetch with the pools'
 *     identity
 * @param idlePoolTimeout how long a pool Gantry made may have nothing active or running before it is deleted
 * @param taskRetention how long Batch keeps an ended task's directory ({@code constraints.retentionTime})
 */
public record BatchSettings(List<BatchAccountSettings> accounts, String poolPrefix, List<ExistingPool> existingPools,
                            int maxNodesPerPool, Optional<String> poolIdentity, Optional<URI> secretsContainer,
                            Duration idlePoolTimeout, Duration taskRetention) {
    public static final String POOL_PREFIX = "poolPrefix";
    public static final String POOLS = "pools";
    public static final String MAX_NODES_PER_POOL = "maxNodesPerPool";
    public static final String POOL_IDENTITY = "poolIdentity";
    public static final String SECRETS_CONTAINER_URL = "secrets.containerUrl";
    public static final String IDLE_POOL_TIMEOUT = "idlePoolTimeout";
    public static final String TASK_RETENTION = "taskRetention";

    static final String DEFAULT_POOL_PREFIX = "gantry-";
    static final int DEFAULT_MAX_NODES_PER_POOL = 10;
    /** Batch's limit on a pool's dedicated or Spot target is far above this; a bound keeps a typo from costing. */
    static final int MAX_MAX_NODES_PER_POOL = 1000;
    static final Duration DEFAULT_IDLE_POOL_TIMEOUT = Duration.ofHours(1);
    static final Duration DEFAULT_TASK_RETENTION = Duration.ofDays(7);
    /** Room left for the head and hash of a pool id within Batch's 64 characters (PoolIds). */
    static final int MAX_POOL_PREFIX = 24;

    /** Batch's id alphabet: letters, digits, '-' and '_' (pools, jobs and tasks alike). */
    private static final Pattern BATCH_ID = Pattern.compile("[A-Za-z0-9_-]{1,64}");
    private static final Pattern IDENTITY_ID = Pattern.compile("/subscriptions/[0-9a-fA-F-]{36}/resourceGroups/"
            + "[-\\w._()]{1,90}/providers/Microsoft\\.ManagedIdentity/userAssignedIdentities/[-\\w]{3,128}",
            Pattern.CASE_INSENSITIVE);
    private static final Pattern VM_SIZE = Pattern.compile("[A-Za-z][A-Za-z0-9_-]*");

    public static final List<ConfigKey> KEYS = keys();

    public BatchSettings {
        accounts = List.copyOf(accounts);
        Objects.requireNonNull(poolPrefix, "poolPrefix");
        existingPools = List.copyOf(existingPools);
        Objects.requireNonNull(poolIdentity, "poolIdentity");
        Objects.requireNonNull(secretsContainer, "secretsContainer");
        Objects.requireNonNull(idlePoolTimeout, "idlePoolTimeout");
        Objects.requireNonNull(taskRetention, "taskRetention");
    }

    /** The account that runs plans of {@code region}, if one is configured. */
    public Optional<BatchAccountSettings> account(String region) {
        return accounts.stream().filter(account -> account.region().equals(region)).findFirst();
    }

    /** The existing pool of a VM size, if one is configured (compared without case, as Azure compares sizes). */
    public Optional<ExistingPool> existingPool(String vmSize) {
        return existingPools.stream().filter(pool -> pool.vmSize().equalsIgnoreCase(vmSize)).findFirst();
    }

    /** Binds the settings; CONFIG_INVALID listing every problem, each located and with its fix. */
    public static BatchSettings bind(BackendConfig config) {
        ConfigProblems problems = new ConfigProblems(config);
        problems.unknownKeys(KEYS);
        List<BatchAccountSettings> accounts = BatchAccountSettings.bindAll(config, problems);
        String prefix = poolPrefix(config, problems);
        List<ExistingPool> pools = existingPools(config, problems);
        int maxNodes = problems.read(() -> config.getInt(MAX_NODES_PER_POOL, DEFAULT_MAX_NODES_PER_POOL, 1,
                MAX_MAX_NODES_PER_POOL), DEFAULT_MAX_NODES_PER_POOL);
        Optional<String> identity = BatchAccountSettings.text(config, POOL_IDENTITY);
        if (identity.isPresent() && !IDENTITY_ID.matcher(identity.get()).matches()) {
            problems.add(POOL_IDENTITY, "'" + identity.get() + "' is not a user-assigned identity's Resource Manager "
                    + "id; give /subscriptions/SUBSCRIPTION-ID/resourceGroups/GROUP/providers/"
                    + "Microsoft.ManagedIdentity/userAssignedIdentities/NAME (az identity show --query id)");
            identity = Optional.empty();
        }
        Optional<URI> container = secretsContainer(config, problems);
        if (container.isPresent() && BatchAccountSettings.text(config, POOL_IDENTITY).isEmpty()) {
            problems.add(SECRETS_CONTAINER_URL, "is set but " + POOL_IDENTITY + " is not: tasks fetch their secrets "
                    + "from the container with the pools' identity; set " + POOL_IDENTITY + " to a user-assigned "
                    + "identity with Storage Blob Data Reader on it, or remove " + SECRETS_CONTAINER_URL);
        }
        Duration idle = positive(config, IDLE_POOL_TIMEOUT, DEFAULT_IDLE_POOL_TIMEOUT, problems);
        Duration retention = positive(config, TASK_RETENTION, DEFAULT_TASK_RETENTION, problems);
        problems.throwIfAny();
        return new BatchSettings(accounts, prefix, pools, maxNodes, identity, container, idle, retention);
    }

    private static String poolPrefix(BackendConfig config, ConfigProblems problems) {
        String prefix = config.get(POOL_PREFIX).map(String::strip).orElse(DEFAULT_POOL_PREFIX);
        if (prefix.isEmpty() || prefix.length() > MAX_POOL_PREFIX || !BATCH_ID.matcher(prefix).matches()) {
            problems.add(POOL_PREFIX, "'" + prefix + "' is not a pool id prefix: 1 to " + MAX_POOL_PREFIX
                    + " letters, digits, '-' or '_' (Batch's id alphabet, leaving room for the rest of the id); "
                    + "e.g. " + DEFAULT_POOL_PREFIX);
            return DEFAULT_POOL_PREFIX;
        }
        return prefix;
    }

    private static List<ExistingPool> existingPools(BackendConfig config, ConfigProblems problems) {
        List<ExistingPool> pools = new ArrayList<>();
        for (int i = 0; i < config.count(POOLS); i++) {
            String at = POOLS + "[" + i + "]";
            Optional<String> size = BatchAccountSettings.text(config, at + ".vmSize");
            Optional<String> id = BatchAccountSettings.text(config, at + ".id");
            if (size.isEmpty()) {
                problems.add(at + ".vmSize", "is required: the VM size whose plans use this pool, e.g. "
                        + "Standard_NC24ads_A100_v4");
            } else if (!VM_SIZE.matcher(size.get()).matches()) {
                problems.add(at + ".vmSize", "'" + size.get() + "' is not a VM size name; e.g. Standard_D8s_v5");
                size = Optional.empty();
            }
            if (id.isEmpty()) {
                problems.add(at + ".id", "is required: the existing pool's id in the account (az batch pool list)");
            } else if (!BATCH_ID.matcher(id.get()).matches()) {
                problems.add(at + ".id", "'" + id.get() + "' is not a Batch pool id: 1 to 64 letters, digits, '-' "
                        + "or '_'");
                id = Optional.empty();
            }
            Optional<String> earlier = size.flatMap(s -> pools.stream().map(ExistingPool::vmSize)
                    .filter(s::equalsIgnoreCase).findFirst());
            if (earlier.isPresent()) {
                problems.add(at + ".vmSize", "'" + size.get() + "' already has a pool listed under " + POOLS
                        + "; list one pool per VM size");
            } else if (size.isPresent() && id.isPresent()) {
                pools.add(new ExistingPool(size.get(), id.get()));
            }
        }
        return pools;
    }

    private static Optional<URI> secretsContainer(BackendConfig config, ConfigProblems problems) {
        Optional<String> value = BatchAccountSettings.text(config, SECRETS_CONTAINER_URL);
        if (value.isEmpty()) {
            return Optional.empty();
        }
        String text = value.get().replaceAll("/+$", "");
        Optional<String> problem;
        URI uri = null;
        try {
            uri = new URI(text);
            problem = BatchAccountSettings.urlProblem(uri.getScheme() + "://" + uri.getRawAuthority());
        } catch (URISyntaxException e) {
            problem = Optional.of(e.getReason());
        }
        boolean oneSegment = uri != null && uri.getRawPath() != null && uri.getRawPath().matches("/[a-z0-9-]{3,63}")
                && uri.getRawQuery() == null && uri.getRawUserInfo() == null;
        if (problem.isPresent() || !oneSegment) {
            problems.add(SECRETS_CONTAINER_URL, "'" + value.get() + "' is not a blob container URL; give "
                    + "https://STORAGEACCOUNT.blob.core.windows.net/CONTAINER (no SAS token: tasks read it with "
                    + POOL_IDENTITY + ")" + problem.map(p -> "; " + p).orElse(""));
            return Optional.empty();
        }
        return Optional.of(uri);
    }

    private static Duration positive(BackendConfig config, String key, Duration fallback, ConfigProblems problems) {
        Duration value = problems.read(() -> config.getDuration(key, fallback), fallback);
        if (value.isZero()) {
            problems.add(key, "must be above 0, got '" + config.get(key).orElse("") + "'; the default is "
                    + (fallback.toDays() > 0 ? fallback.toDays() + "d" : fallback.toHours() + "h"));
            return fallback;
        }
        return value;
    }

    private static List<ConfigKey> keys() {
        String at = BatchAccountSettings.ACCOUNTS + "[*].";
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.required(at + BatchAccountSettings.URL, "a Batch account's endpoint, "
                + "https://ACCOUNT.REGION.batch.azure.com"));
        keys.add(ConfigKey.required(at + BatchAccountSettings.REGION, "the Azure region whose plans run in the "
                + "account (one account per region)"));
        keys.add(ConfigKey.optional(at + BatchAccountSettings.AUTH, "how Gantry signs in: sharedKey or entra",
                "sharedKey when a key is given, else entra"));
        keys.add(ConfigKey.secret(at + BatchAccountSettings.KEY, "a secret reference (env:NAME, file:PATH, a Key "
                + "Vault secret) to the account's shared key; auth: sharedKey only"));
        keys.add(ConfigKey.optional(at + BatchAccountSettings.RESOURCE_ID, "the account's Resource Manager id: "
                + "needed for Spot, pool identities and quota checks", null));
        keys.add(ConfigKey.optional(POOL_PREFIX, "the start of the id of every pool and job Gantry makes",
                DEFAULT_POOL_PREFIX));
        keys.add(ConfigKey.optional(POOLS + "[*].vmSize", "the VM size whose plans use an existing pool", null));
        keys.add(ConfigKey.optional(POOLS + "[*].id", "an existing pool's id: Gantry uses it but never resizes or "
                + "deletes it", null));
        keys.add(ConfigKey.optional(MAX_NODES_PER_POOL, "the most nodes autoscale gives a pool Gantry makes",
                String.valueOf(DEFAULT_MAX_NODES_PER_POOL)));
        keys.add(ConfigKey.optional(POOL_IDENTITY, "the Resource Manager id of a user-assigned identity the pools "
                + "Gantry makes carry (secrets, registries)", null));
        keys.add(ConfigKey.optional(SECRETS_CONTAINER_URL, "a blob container (https://ACCOUNT.blob.core.windows.net/"
                + "CONTAINER) a task's secrets pass through, read with poolIdentity", null));
        keys.add(ConfigKey.optional(IDLE_POOL_TIMEOUT, "how long a pool Gantry made may sit idle before gantry gc "
                + "deletes it with its job", "1h"));
        keys.add(ConfigKey.optional(TASK_RETENTION, "how long Batch keeps an ended task's files", "7d"));
        return List.copyOf(keys);
    }
}
