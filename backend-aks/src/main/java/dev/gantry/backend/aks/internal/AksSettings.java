package dev.gantry.backend.aks.internal;

import dev.gantry.api.ContainerSpec;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.api.backend.ConfigProblems;
import dev.gantry.api.backend.JobEnvironment;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Predicate;

/**
 * The AKS backend's settings, bound once from {@code backends.aks.*}; every problem is reported at once, each naming
 * its key, where it was written, the value given and the fix. Binding reads the kubeconfig file (to check the
 * context) and contacts nothing.
 *
 * @param kubeconfig where the cluster is and who Gantry is there
 * @param namespace where every object Gantry makes lives
 * @param serviceAccount the pods' account; empty: the namespace's {@code default}. Its token is never mounted
 * @param imagePullSecrets names of existing pull secrets the pods use
 * @param defaultImage the image of workloads that name no container
 * @param nodePools the node pool of each VM size listed
 * @param gpuTolerations taints GPU pods tolerate
 * @param checkpointClaim an existing ReadWriteMany claim mounted at each workload's checkpoint path
 * @param shmSize the size of {@code /dev/shm} as a Kubernetes quantity; empty: half the pod's memory
 * @param masterPort {@code MASTER_PORT}
 * @param rdmaResource the extended resource multi-node InfiniBand plans ask for ({@code rdma/ib})
 * @param gangTimeout how long ranks may wait for their peers to be placed before a watching Gantry ends the job
 * @param nodeLossToleration how long pods stay bound to a node that stopped answering
 * @param ttlAfterFinished how long an ended Job stays before Kubernetes deletes it
 * @param kueueQueue the Kueue local queue jobs are admitted through, when given
 * @param azure the cluster whose node pools Gantry may create, when given
 */
public record AksSettings(Kubeconfig kubeconfig, String namespace, Optional<String> serviceAccount,
                          List<String> imagePullSecrets, Optional<String> defaultImage, NodePools nodePools,
                          List<GpuToleration> gpuTolerations, Optional<String> checkpointClaim,
                          Optional<String> shmSize, int masterPort, Optional<String> rdmaResource,
                          Duration gangTimeout, Duration nodeLossToleration, Duration ttlAfterFinished,
                          Optional<String> kueueQueue, Optional<AzurePools> azure) {
    public static final String KUBECONFIG = Kubeconfig.KUBECONFIG;
    public static final String CONTEXT = Kubeconfig.CONTEXT;
    public static final String NAMESPACE = "namespace";
    public static final String SERVICE_ACCOUNT = "serviceAccount";
    public static final String IMAGE_PULL_SECRETS = "imagePullSecrets";
    public static final String DEFAULT_IMAGE = "defaultImage";
    public static final String NODE_POOLS = "nodePools";
    public static final String GPU_TOLERATIONS = "gpuTolerations";
    public static final String CHECKPOINT_CLAIM = "checkpointClaim";
    public static final String SHM_SIZE = "shmSize";
    public static final String MASTER_PORT = "masterPort";
    public static final String RDMA_RESOURCE = "rdmaResource";
    public static final String GANG_TIMEOUT = "gangTimeout";
    public static final String NODE_LOSS_TOLERATION = "nodeLossToleration";
    public static final String TTL_AFTER_FINISHED = "ttlAfterFinished";
    public static final String KUEUE_QUEUE = "kueueQueue";

    static final Duration DEFAULT_GANG_TIMEOUT = Duration.ofMinutes(15);
    static final Duration DEFAULT_NODE_LOSS_TOLERATION = Duration.ofSeconds(30);
    static final Duration DEFAULT_TTL_AFTER_FINISHED = Duration.ofHours(24);

    public static final List<ConfigKey> KEYS = keys();

    public AksSettings {
        Objects.requireNonNull(kubeconfig, "kubeconfig");
        Objects.requireNonNull(namespace, "namespace");
        Objects.requireNonNull(serviceAccount, "serviceAccount");
        imagePullSecrets = List.copyOf(imagePullSecrets);
        Objects.requireNonNull(defaultImage, "defaultImage");
        Objects.requireNonNull(nodePools, "nodePools");
        gpuTolerations = List.copyOf(gpuTolerations);
        Objects.requireNonNull(checkpointClaim, "checkpointClaim");
        Objects.requireNonNull(shmSize, "shmSize");
        Objects.requireNonNull(rdmaResource, "rdmaResource");
        Objects.requireNonNull(gangTimeout, "gangTimeout");
        Objects.requireNonNull(nodeLossToleration, "nodeLossToleration");
        Objects.requireNonNull(ttlAfterFinished, "ttlAfterFinished");
        Objects.requireNonNull(kueueQueue, "kueueQueue");
        Objects.requireNonNull(azure, "azure");
    }

    /** Binds the settings with the process's own environment (KUBECONFIG, the home directory). */
    public static AksSettings bind(BackendConfig config) {
        return bind(config, Kubeconfig.Environment.current());
    }

    /** Binds the settings; CONFIG_INVALID listing every problem, each located and with its fix. */
    public static AksSettings bind(BackendConfig config, Kubeconfig.Environment environment) {
        ConfigProblems problems = new ConfigProblems(config);
        problems.unknownKeys(KEYS);
        Kubeconfig kubeconfig = Kubeconfig.bind(config, environment, problems);
        String namespace = namespace(config, problems);
        Optional<String> serviceAccount = name(config, SERVICE_ACCOUNT, problems);
        List<String> pullSecrets = new ArrayList<>();
        for (String secret : config.getList(IMAGE_PULL_SECRETS)) {
            check(secret.strip(), KubeSyntax::isDnsSubdomain, IMAGE_PULL_SECRETS, "a secret name (lower-case "
                    + "letters, digits, '-' and '.'; kubectl get secrets lists them)", problems).ifPresent(pullSecrets::add);
        }
        Optional<String> defaultImage = optional(config, DEFAULT_IMAGE).flatMap(image -> check(image,
                ContainerSpec::isValidImage, DEFAULT_IMAGE, "an image reference [registry/]repository[:tag|@digest] "
                        + "with a lower-case repository, e.g. nvcr.io/nvidia/pytorch:24.05-py3", problems));
        NodePools nodePools = NodePools.bind(config, NODE_POOLS, problems);
        List<GpuToleration> tolerations = gpuTolerations(config, problems);
        Optional<String> claim = name(config, CHECKPOINT_CLAIM, problems);
        Optional<String> shmSize = optional(config, SHM_SIZE).flatMap(size -> check(size,
                KubeSyntax::isPositiveQuantity, SHM_SIZE, "a Kubernetes quantity "
                        + "above 0: a number with an optional suffix such as Mi or Gi (binary) or M or G (decimal); "
                        + "e.g. 16Gi", problems));
        int masterPort = problems.read(() -> config.getInt(MASTER_PORT, JobEnvironment.DEFAULT_MASTER_PORT, 1, 65535),
                JobEnvironment.DEFAULT_MASTER_PORT);
        Optional<String> rdma = optional(config, RDMA_RESOURCE).flatMap(resource -> check(resource,
                text -> KubeSyntax.isQualifiedName(text) && text.contains("/"), RDMA_RESOURCE, "an extended resource "
                        + "name DOMAIN/NAME as the RDMA device plugin advertises it, e.g. rdma/ib", problems));
        Duration gangTimeout = duration(config, GANG_TIMEOUT, DEFAULT_GANG_TIMEOUT, false, problems);
        Duration nodeLoss = duration(config, NODE_LOSS_TOLERATION, DEFAULT_NODE_LOSS_TOLERATION, true, problems);
        Duration ttl = duration(config, TTL_AFTER_FINISHED, DEFAULT_TTL_AFTER_FINISHED, true, problems);
        Optional<String> queue = optional(config, KUEUE_QUEUE).flatMap(name -> check(name,
                text -> KubeSyntax.isDnsSubdomain(text) && text.length() <= 63, KUEUE_QUEUE, "a Kueue LocalQueue "
                        + "name (lower-case letters, digits, '-' and '.', up to 63; kubectl get localqueues lists "
                        + "them)", problems));
        Optional<AzurePools> azure = AzurePools.bind(config, problems);
        problems.throwIfAny();
        return new AksSettings(kubeconfig, namespace, serviceAccount, pullSecrets, defaultImage, nodePools,
                tolerations, claim, shmSize, masterPort, rdma, gangTimeout, nodeLoss, ttl, queue, azure);
    }

    /**
     * What the user must be told every time the backend is created: settings that work but give up a guarantee
     * (a cluster whose certificate is not verified).
     */
    public List<String> warnings() {
        return kubeconfig.insecureClusters().stream().map(cluster -> "backends.aks: the kubeconfig's cluster '"
                + cluster + "' sets insecure-skip-tls-verify: the API server's identity is NOT verified and a man in "
                + "the middle would go unnoticed; give its certificate-authority-data instead").toList();
    }

    private static String namespace(BackendConfig config, ConfigProblems problems) {
        Optional<String> value = optional(config, NAMESPACE);
        if (value.isEmpty()) {
            problems.add(NAMESPACE, "is required: the Kubernetes namespace where Gantry creates its Jobs; e.g. "
                    + "ml-jobs");
            return "";
        }
        if (!KubeSyntax.isDnsLabel(value.get())) {
            problems.add(NAMESPACE, "'" + value.get() + "' is not a Kubernetes namespace name: lower-case letters, "
                    + "digits and '-', at most 63, a letter or digit at each end; e.g. "
                    + KubeSyntax.suggestLabel(value.get()));
            return "";
        }
        return value.get();
    }

    /** An optional object name (an RFC 1123 subdomain). */
    private static Optional<String> name(BackendConfig config, String key, ConfigProblems problems) {
        return optional(config, key).flatMap(value -> check(value, KubeSyntax::isDnsSubdomain, key, "a Kubernetes "
                + "object name: lower-case letters, digits, '-' and '.', at most 253, a letter or digit at each end; "
                + "e.g. " + KubeSyntax.suggestLabel(value), problems));
    }

    private static List<GpuToleration> gpuTolerations(BackendConfig config, ConfigProblems problems) {
        List<String> items = config.getList(GPU_TOLERATIONS);
        List<GpuToleration> tolerations = new ArrayList<>();
        for (String item : items.isEmpty() ? GpuToleration.DEFAULTS : items) {
            try {
                tolerations.add(GpuToleration.parse(item));
            } catch (IllegalArgumentException e) {
                problems.add(GPU_TOLERATIONS, e.getMessage());
            }
        }
        return tolerations;
    }

    private static Duration duration(BackendConfig config, String key, Duration fallback, boolean zeroAllowed,
                                     ConfigProblems problems) {
        Duration value = problems.read(() -> config.getDuration(key, fallback), fallback);
        if (!zeroAllowed && value.isZero()) {
            problems.add(key, "must be above 0, got '" + config.get(key).orElse("") + "'; e.g. "
                    + fallback.toMinutes() + "m");
            return fallback;
        }
        return value;
    }

    private static Optional<String> optional(BackendConfig config, String key) {
        return config.get(key).map(String::strip).filter(v -> !v.isEmpty());
    }

    private static Optional<String> check(String value, Predicate<String> valid, String key, String what,
                                          ConfigProblems problems) {
        if (valid.test(value)) {
            return Optional.of(value);
        }
        problems.add(key, "'" + value + "' is not " + what);
        return Optional.empty();
    }

    private static List<ConfigKey> keys() {
        List<ConfigKey> keys = new ArrayList<>();
        keys.add(ConfigKey.optional(KUBECONFIG, "the kubeconfig file of the cluster (AKS with Entra ID: its kubelogin "
                + "exec plugin)", "KUBECONFIG, then ~/.kube/config; inside a pod, the pod's account"));
        keys.add(ConfigKey.optional(CONTEXT, "the kubeconfig context to use", "the kubeconfig's current context"));
        keys.add(ConfigKey.required(NAMESPACE, "the namespace where every object Gantry makes lives"));
        keys.add(ConfigKey.optional(SERVICE_ACCOUNT, "the pods' service account; its token is never mounted",
                "the namespace's default"));
        keys.add(ConfigKey.optional(IMAGE_PULL_SECRETS, "names of existing image pull secrets", null));
        keys.add(ConfigKey.optional(IMAGE_PULL_SECRETS + "[*]", "the name of one existing image pull secret", null));
        keys.add(ConfigKey.optional(DEFAULT_IMAGE, "the image of workloads that name no container; without it such "
                + "plans are refused", null));
        keys.add(ConfigKey.optional(NODE_POOLS, "the node pool of each VM size, as VMSIZE=POOL items", null));
        keys.add(ConfigKey.optional(NODE_POOLS + "[*]", "one VMSIZE=POOL item", null));
        keys.add(ConfigKey.optional(GPU_TOLERATIONS, "taints GPU pods tolerate, as KEY[=VALUE]:EFFECT items",
                String.join(", ", GpuToleration.DEFAULTS)));
        keys.add(ConfigKey.optional(GPU_TOLERATIONS + "[*]", "one KEY[=VALUE]:EFFECT taint GPU pods tolerate", null));
        keys.add(ConfigKey.optional(CHECKPOINT_CLAIM, "an existing ReadWriteMany PersistentVolumeClaim (Azure Files, "
                + "Blob CSI) mounted at each workload's checkpoint path", null));
        keys.add(ConfigKey.optional(SHM_SIZE, "the size of /dev/shm, a Kubernetes quantity such as 16Gi",
                "half the pod's memory"));
        keys.add(ConfigKey.optional(MASTER_PORT, "MASTER_PORT of multi-node jobs",
                String.valueOf(JobEnvironment.DEFAULT_MASTER_PORT)));
        keys.add(ConfigKey.optional(RDMA_RESOURCE, "the extended resource multi-node InfiniBand plans ask for, e.g. "
                + "rdma/ib", null));
        keys.add(ConfigKey.optional(GANG_TIMEOUT, "how long the ranks of a multi-node job may wait for their peers "
                + "to be placed", "15m"));
        keys.add(ConfigKey.optional(NODE_LOSS_TOLERATION, "how long pods stay on a node that stopped answering "
                + "(tolerationSeconds of node.kubernetes.io/unreachable and not-ready)", "30s"));
        keys.add(ConfigKey.optional(TTL_AFTER_FINISHED, "how long an ended Job stays (ttlSecondsAfterFinished)",
                "24h"));
        keys.add(ConfigKey.optional(KUEUE_QUEUE, "a Kueue LocalQueue: jobs are created suspended and admitted whole "
                + "by Kueue", null));
        keys.add(ConfigKey.optional(AzurePools.SUBSCRIPTION, "node-pool management: the cluster's subscription id",
                null));
        keys.add(ConfigKey.optional(AzurePools.RESOURCE_GROUP, "node-pool management: the cluster's resource group",
                null));
        keys.add(ConfigKey.optional(AzurePools.CLUSTER, "node-pool management: the AKS cluster's name", null));
        keys.add(ConfigKey.optional(AzurePools.MAX_NODES, "node-pool management: the most nodes a pool Gantry "
                + "creates may grow to", null));
        return List.copyOf(keys);
    }
}
