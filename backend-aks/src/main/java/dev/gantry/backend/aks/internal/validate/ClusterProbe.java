package dev.gantry.backend.aks.internal.validate;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.backend.aks.internal.AksSettings;
import dev.gantry.backend.aks.internal.kube.KubeConnection;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * Reads the facts validate needs, each once per backend: the version, the namespace, the nodes of each planned size
 * and the checkpoint claim. A read Gantry has no permission for (the optional cluster-wide {@code nodes} list and
 * {@code namespaces} get) is skipped with a warning naming the permission to grant, never a failure.
 */
public final class ClusterProbe {
    static final String INSTANCE_TYPE = "node.kubernetes.io/instance-type";

    private final KubeConnection connection;
    private final AksSettings settings;
    private final System.Logger logger;
    private final Map<String, Optional<?>> cache = new ConcurrentHashMap<>();

    public ClusterProbe(KubeConnection connection, AksSettings settings, System.Logger logger) {
        this.connection = connection;
        this.settings = settings;
        this.logger = logger;
    }

    public ClusterFacts facts(Plan plan) {
        Optional<Integer> minor = cached("version", () -> Optional.of(minor(connection.call("reading /version",
                () -> connection.client().getKubernetesVersion()).getMinor())));
        Optional<Boolean> namespace = cached("namespace", () -> permitted("get namespaces", () ->
                connection.client().namespaces().withName(settings.namespace()).get() != null));
        String size = plan.vmSize().name();
        Optional<List<Node>> nodes = settings.azure().isPresent() ? Optional.of(List.of()) : cached("nodes/" + size,
                () -> permitted("list nodes", () -> connection.client().nodes().withLabel(INSTANCE_TYPE, size).list()
                        .getItems()));
        Optional<List<String>> claim = plan.nodes() < 2 || settings.checkpointClaim().isEmpty() ? Optional.empty()
                : cached("claim", () -> permitted("get persistentvolumeclaims", () -> accessModes(connection
                        .client().persistentVolumeClaims().withName(settings.checkpointClaim().get()).get())));
        return new ClusterFacts(minor, namespace, nodes, claim);
    }

    @SuppressWarnings("unchecked")
    private <T> Optional<T> cached(String key, Supplier<Optional<T>> read) {
        Optional<?> known = cache.get(key);
        if (known == null) {
            known = read.get();
            cache.put(key, known);
        }
        return (Optional<T>) known;
    }

    private <T> Optional<T> permitted(String verbAndResource, Supplier<T> read) {
        try {
            return Optional.of(connection.call(verbAndResource, read));
        } catch (GantryException e) {
            if (e.code() != ErrorCode.AUTH_FAILED) {
                throw e;
            }
            logger.log(System.Logger.Level.WARNING, "backends.aks: validate skipped a check because the account may "
                    + "not " + verbAndResource + "; grant it (" + verbAndResource + (verbAndResource.contains("nodes")
                    || verbAndResource.contains("namespaces") ? ", a ClusterRole" : " in namespace "
                    + settings.namespace()) + ") to have plans checked against the cluster");
            return Optional.empty();
        }
    }

    private static List<String> accessModes(PersistentVolumeClaim claim) {
        return claim == null || claim.getSpec() == null || claim.getSpec().getAccessModes() == null ? List.of()
                : claim.getSpec().getAccessModes();
    }

    /** The minor version, as the API server writes it ("32", or "32+" on some distributions). */
    static int minor(String text) {
        String digits = text.replaceAll("\\D.*$", "");
        try {
            return Integer.parseInt(digits);
        } catch (NumberFormatException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "the API server's /version gives minor version '"
                    + text + "', not a number");
        }
    }
}
