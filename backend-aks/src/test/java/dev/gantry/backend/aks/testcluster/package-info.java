/**
 * The Kubernetes test cluster ({@link dev.gantry.backend.aks.testcluster.KubeTestCluster}): what only a real
 * cluster would otherwise give the AKS backend's tests, on this machine.
 *
 * <ul>
 *   <li>The API server: Fabric8's CRUD mock store ({@code CrudStore}, {@code ObjectStore}: creation with the API
 *       server's defaults, graceful pod deletion, finalizers, propagation policies, deletions replayed to watches
 *       from a resourceVersion, list pages) behind an HTTPS front ({@code ApiServer}: tokens, the documented Role
 *       and RBAC's 403 wording, request counts, {@code /version}, pod logs, the eviction subresource). What is stored is first checked as a 1.32 API server checks it ({@code ObjectValidation}:
 *       the published OpenAPI schemas in {@code OpenApiSchema}, the name, label, annotation, environment, key and port
 *       rules in {@code ObjectRules} and {@code NameRules}), refused with its status and wording.</li>
 *   <li>The control plane, one level-triggered loop ({@code ControlPlane}): pod GC and taint-based eviction
 *       ({@code GarbageCollector}, {@code TaintManager}, {@code Disruptions}), owner-reference garbage collection,
 *       the Indexed Job controller ({@code JobController}, {@code PodFailurePolicy}), kube-scheduler's filters
 *       ({@code Scheduler}), the TTL controller.</li>
 *   <li>The nodes ({@code ClusterNodes}, {@code NodeTemplate}): AKS-labelled Node objects, each with a kubelet
 *       ({@code Kubelet}, {@code ContainerEnvironment}, {@code Expansion}) that runs containers as real processes in
 *       the node's network namespace ({@code HostProcessRuntime}), the busybox test image of scripts/setup-podman.sh
 *       under Podman in that namespace ({@code PodmanRuntime}, {@code ContainerMounts}; both report start errors in
 *       containerd's words, {@code RuncMessages}), and publishes pod DNS names in the node's hosts file
 *       ({@code PodDns}).</li>
 * </ul>
 */
package dev.gantry.backend.aks.testcluster;
