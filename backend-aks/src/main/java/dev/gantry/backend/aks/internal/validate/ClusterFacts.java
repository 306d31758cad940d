package dev.gantry.backend.aks.internal.validate;

import io.fabric8.kubernetes.api.model.Node;
import java.util.List;
import java.util.Objects;
import java.util.Optional;

/**
 * What validate learned from the cluster for one plan; each fact empty where Gantry may not read it (the optional
 * cluster-wide permissions), which is then not held against the plan.
 *
 * @param minorVersion the API server's minor version of Kubernetes 1.x
 * @param namespaceExists whether the namespace exists
 * @param nodesOfSize the nodes labelled with the plan's instance type
 * @param claimAccessModes the checkpoint claim's access modes; an empty list when the claim does not exist
 */
public record ClusterFacts(Optional<Integer> minorVersion, Optional<Boolean> namespaceExists,
                           Optional<List<Node>> nodesOfSize, Optional<List<String>> claimAccessModes) {
    public ClusterFacts {
        Objects.requireNonNull(minorVersion, "minorVersion");
        Objects.requireNonNull(namespaceExists, "namespaceExists");
        Objects.requireNonNull(nodesOfSize, "nodesOfSize");
        Objects.requireNonNull(claimAccessModes, "claimAccessModes");
    }
}
