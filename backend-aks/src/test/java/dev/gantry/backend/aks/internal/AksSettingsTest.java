package dev.gantry.backend.aks.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class AksSettingsTest {
    private static final String KUBECONFIG = """
            apiVersion: v1
            kind: Config
            current-context: ml-aks
            clusters:
            - name: ml-aks
              cluster:
                server: https://ml-aks-dns.hcp.westus2.azmk8s.io:443
                certificate-authority-data: LS0tLS1CRUdJTg==
            - name: test-cluster
              cluster:
                server: https://127.0.0.1:6443
                insecure-skip-tls-verify: true
            contexts:
            - name: ml-aks
              context: {cluster: ml-aks, user: clusterUser_ml_ml-aks, namespace: ml-jobs}
            - name: ml-aks-admin
              context: {cluster: ml-aks, user: clusterAdmin_ml_ml-aks}
            - name: test
              context: {cluster: test-cluster, user: tester}
            users:
            - name: clusterUser_ml_ml-aks
              user:
                exec:
                  apiVersion: client.authentication.k8s.io/v1beta1
                  command: kubelogin
                  args: [get-token, --login, azurecli, --server-id, 6dae42f8-4368-4678-94ff-3960e28e3630]
            - name: clusterAdmin_ml_ml-aks
              user: {token: not-a-real-token}
            - name: tester
              user: {token: not-a-real-token}
            """;

    @TempDir
    Path home;
    private Path kubeconfig;

    @BeforeEach
    void writeKubeconfig() throws IOException {
        kubeconfig = home.resolve("cluster.kubeconfig");
        Files.writeString(kubeconfig, KUBECONFIG);
    }

    private Kubeconfig.Environment environment(String variable, boolean inPod) {
        return new Kubeconfig.Environment(Optional.ofNullable(variable), home, inPod);
    }

    private Map<String, String> minimal() {
        Map<String, String> values = new HashMap<>();
        values.put("kubeconfig", kubeconfig.toString());
        values.put("namespace", "ml-jobs");
        return values;
    }

    private AksSettings bind(Map<String, String> values) {
        return AksSettings.bind(new BackendConfig("aks", values), environment(null, false));
    }

    /** Every problem binding reports, as users read them. */
    private List<String> problems(BackendConfig config, Kubeconfig.Environment environment) {
        GantryException e = assertThrows(GantryException.class, () -> AksSettings.bind(config, environment));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        List<String> problems = e.problems().stream().map(Problem::toString).toList();
        assertEquals(String.join("\n", problems), e.getMessage());
        return problems;
    }

    private List<String> problems(Map<String, String> values) {
        return problems(new BackendConfig("aks", values), environment(null, false));
    }

    @Test
    void theLeastSettingsGiveTheIssuesDefaults() {
        AksSettings settings = bind(minimal());
        assertEquals(List.of(kubeconfig), settings.kubeconfig().files());
        assertEquals(Optional.empty(), settings.kubeconfig().context());
        assertEquals("ml-jobs", settings.namespace());
        assertEquals(Optional.empty(), settings.serviceAccount());
        assertEquals(List.of(), settings.imagePullSecrets());
        assertEquals(Optional.empty(), settings.defaultImage());
        assertEquals(NodePools.none(), settings.nodePools());
        assertEquals(List.of("sku=gpu:NoSchedule", "nvidia.com/gpu:NoSchedule"),
                settings.gpuTolerations().stream().map(GpuToleration::toString).toList());
        assertEquals(Optional.empty(), settings.checkpointClaim());
        assertEquals(Optional.empty(), settings.shmSize());
        assertEquals(29500, settings.masterPort());
        assertEquals(Optional.empty(), settings.rdmaResource());
        assertEquals(Duration.ofMinutes(15), settings.gangTimeout());
        assertEquals(Duration.ofSeconds(30), settings.nodeLossToleration());
        assertEquals(Duration.ofHours(24), settings.ttlAfterFinished());
        assertEquals(Optional.empty(), settings.kueueQueue());
        assertEquals(Optional.empty(), settings.azure());
        assertEquals(List.of(), settings.warnings());
    }

    @Test
    void everyKeyIsBound() {
        Map<String, String> values = minimal();
        values.put("context", "ml-aks-admin");
        values.put("serviceAccount", "gantry-runner");
        values.put("imagePullSecrets[0]", "acr-pull");
        values.put("imagePullSecrets[1]", "ngc");
        values.put("defaultImage", "nvcr.io/nvidia/pytorch:24.05-py3");
        values.put("nodePools[0]", "Standard_NC24ads_A100_v4=gpua100");
        values.put("nodePools[1]", "Standard_D8s_v5 = cpu");
        values.put("gpuTolerations", "sku=gpu:NoSchedule, dedicated=ml:NoExecute, amd.com/gpu:NoSchedule");
        values.put("checkpointClaim", "checkpoints");
        values.put("shmSize", "16Gi");
        values.put("masterPort", "29400");
        values.put("rdmaResource", "rdma/ib");
        values.put("gangTimeout", "5m");
        values.put("nodeLossToleration", "0s");
        values.put("ttlAfterFinished", "2h");
        values.put("kueueQueue", "team-a");
        values.put("azure.subscription", "00000000-1111-2222-3333-444444444444");
        values.put("azure.resourceGroup", "ml-rg");
        values.put("azure.cluster", "ml-aks");
        values.put("azure.maxNodes", "8");
        AksSettings settings = bind(values);
        assertEquals(Optional.of("ml-aks-admin"), settings.kubeconfig().context());
        assertEquals(Optional.of("gantry-runner"), settings.serviceAccount());
        assertEquals(List.of("acr-pull", "ngc"), settings.imagePullSecrets());
        assertEquals(Optional.of("nvcr.io/nvidia/pytorch:24.05-py3"), settings.defaultImage());
        assertEquals(Optional.of("gpua100"), settings.nodePools().poolFor("standard_nc24ads_a100_v4"));
        assertEquals(Optional.of("cpu"), settings.nodePools().poolFor("Standard_D8s_v5"));
        assertEquals(List.of(new GpuToleration("sku", Optional.of("gpu"), "NoSchedule"),
                new GpuToleration("dedicated", Optional.of("ml"), "NoExecute"),
                new GpuToleration("amd.com/gpu", Optional.empty(), "NoSchedule")), settings.gpuTolerations());
        assertEquals(Optional.of("checkpoints"), settings.checkpointClaim());
        assertEquals(Optional.of("16Gi"), settings.shmSize());
        assertEquals(29400, settings.masterPort());
        assertEquals(Optional.of("rdma/ib"), settings.rdmaResource());
        assertEquals(Duration.ofMinutes(5), settings.gangTimeout());
        assertEquals(Duration.ZERO, settings.nodeLossToleration());
        assertEquals(Duration.ofHours(2), settings.ttlAfterFinished());
        assertEquals(Optional.of("team-a"), settings.kueueQueue());
        assertEquals(Optional.of(new AzurePools("00000000-1111-2222-3333-444444444444", "ml-rg", "ml-aks", 8)),
                settings.azure());
        assertTrue(values.keySet().stream().allMatch(key -> AksSettings.KEYS.stream().anyMatch(k -> k.matches(key))),
                "every key bound is declared");
    }

    @Test
    void everyProblemIsReportedAtOnceLocatedNamingTheKeyTheValueAndTheFix() {
        Map<String, String> values = new HashMap<>();
        values.put("kubeconfig", home.resolve("missing.yaml").toString());
        values.put("namespace", "ML_Jobs");
        values.put("nodePools[0]", "Standard_NC24ads_A100_v4");
        values.put("nodePools[1]", "Standard_D8s_v5=CPU_pool");
        values.put("gangTimeout", "15 minutes");
        values.put("shmSize", "16 GB");
        values.put("masterPort", "70000");
        values.put("gpuTolerations[0]", "sku=gpu");
        values.put("rdmaResource", "ib");
        values.put("imagePullSecrets[0]", "ACR");
        values.put("defaultImage", "PyTorch:latest");
        values.put("serviceAcount", "gantry");
        values.put("azure.cluster", "ml-aks");
        Map<String, SourceLocation> where = new HashMap<>();
        where.put("namespace", new SourceLocation("gantry.yaml", 4, 16));
        where.put("nodePools[0]", new SourceLocation("gantry.yaml", 6, 9));
        where.put("gangTimeout", new SourceLocation("gantry.yaml", 8, 18));
        List<String> problems = problems(new BackendConfig("aks", values, where), environment(null, false));
        String missing = home.resolve("missing.yaml").toString();
        assertEquals(List.of(
                "backends.aks.serviceAcount: unknown setting; did you mean 'serviceAccount'?",
                "backends.aks.kubeconfig: '" + missing + "' does not exist; give the file az aks get-credentials "
                        + "writes (~/.kube/config), or remove the setting to use KUBECONFIG or ~/.kube/config",
                "gantry.yaml:4:16: backends.aks.namespace: 'ML_Jobs' is not a Kubernetes namespace name: lower-case "
                        + "letters, digits and '-', at most 63, a letter or digit at each end; e.g. ml-jobs",
                "backends.aks.imagePullSecrets: 'ACR' is not a secret name (lower-case letters, digits, '-' and '.'; "
                        + "kubectl get secrets lists them)",
                "backends.aks.defaultImage: 'PyTorch:latest' is not an image reference "
                        + "[registry/]repository[:tag|@digest] with a lower-case repository, e.g. "
                        + "nvcr.io/nvidia/pytorch:24.05-py3",
                "backends.aks.nodePools: 'Standard_NC24ads_A100_v4' has no '='; write VMSIZE=POOL, e.g. "
                        + "Standard_NC24ads_A100_v4=gpua100",
                "backends.aks.nodePools: 'Standard_D8s_v5=CPU_pool': 'CPU_pool' is not an AKS node pool name: a "
                        + "lower-case letter then up to 11 lower-case letters or digits (az aks nodepool list shows "
                        + "them)",
                "backends.aks.gpuTolerations: 'sku=gpu' has no ':EFFECT'; write KEY[=VALUE]:EFFECT, e.g. "
                        + "sku=gpu:NoSchedule",
                "backends.aks.shmSize: '16 GB' is not a Kubernetes quantity above 0: a number with an optional suffix "
                        + "such as Mi or Gi (binary) or M or G (decimal); e.g. 16Gi",
                "backends.aks.masterPort: must be between 1 and 65535, got 70000",
                "backends.aks.rdmaResource: 'ib' is not an extended resource name DOMAIN/NAME as the RDMA device "
                        + "plugin advertises it, e.g. rdma/ib",
                "gantry.yaml:8:18: backends.aks.gangTimeout: must be a duration such as 30s, 5m or 2h, got "
                        + "'15 minutes'",
                "backends.aks.azure.subscription: is required with the other azure settings: a subscription id (a "
                        + "GUID, as az account show prints it); or remove every azure setting to use existing node "
                        + "pools only",
                "backends.aks.azure.resourceGroup: is required with the other azure settings: a resource group name "
                        + "(letters, digits, '-', '_', '.', '(' and ')', up to 90, not ending in '.'); or remove "
                        + "every azure setting to use existing node pools only",
                "backends.aks.azure.maxNodes: is required with the other azure settings: the most nodes a pool "
                        + "Gantry creates may grow to, e.g. 4"), problems);
    }

    @Test
    void aMissingNamespaceIsRequiredWithAnExample() {
        Map<String, String> values = minimal();
        values.remove("namespace");
        assertEquals(List.of("backends.aks.namespace: is required: the Kubernetes namespace where Gantry creates its "
                + "Jobs; e.g. ml-jobs"), problems(values));
    }

    @Test
    void aContextTheKubeconfigLacksListsItsContextsNearestFirst() {
        Map<String, String> values = minimal();
        values.put("context", "ml-aks-admn");
        assertEquals(List.of("backends.aks.context: 'ml-aks-admn' is not a context of " + kubeconfig + "; it has "
                + "ml-aks-admin, ml-aks, test (kubectl config get-contexts lists them)"), problems(values));
    }

    @Test
    void aCurrentContextTheKubeconfigLacksIsNamedUnderKubeconfig() throws IOException {
        Files.writeString(kubeconfig, KUBECONFIG.replace("current-context: ml-aks", "current-context: gone"));
        assertEquals(List.of("backends.aks.kubeconfig: 'gone' is not a context of " + kubeconfig + "; it has "
                + "test, ml-aks, ml-aks-admin (kubectl config get-contexts lists them)"), problems(minimal()));
    }

    @Test
    void aKubeconfigWithoutACurrentContextNeedsTheContextSetting() throws IOException {
        Files.writeString(kubeconfig, KUBECONFIG.replace("current-context: ml-aks\n", ""));
        assertEquals(List.of("backends.aks.context: is not set and " + kubeconfig + " names no current context; set "
                + "it to one of ml-aks, ml-aks-admin, test"), problems(minimal()));
    }

    @Test
    void aFileThatIsNoKubeconfigIsNamed() throws IOException {
        Files.writeString(kubeconfig, "clusters: [unclosed\n");
        List<String> problems = problems(minimal());
        assertEquals(1, problems.size(), problems.toString());
        assertTrue(problems.get(0).startsWith("backends.aks.kubeconfig: " + kubeconfig + " is not a kubeconfig file ("),
                problems.get(0));
        assertTrue(problems.get(0).endsWith("); give the file az aks get-credentials writes"), problems.get(0));
    }

    @Test
    void aClusterThatSkipsTlsVerificationIsUsedWithAWarning() {
        Map<String, String> values = minimal();
        values.put("context", "test");
        assertEquals(List.of("backends.aks: the kubeconfig's cluster 'test-cluster' sets insecure-skip-tls-verify: "
                + "the API server's identity is NOT verified and a man in the middle would go unnoticed; give its "
                + "certificate-authority-data instead"), bind(values).warnings());
    }

    @Test
    void withoutTheSettingKubeconfigIsFoundAsKubectlFindsIt() throws IOException {
        Map<String, String> values = Map.of("namespace", "ml-jobs");
        Path other = home.resolve("other.kubeconfig");
        Files.writeString(other, KUBECONFIG.replace("current-context: ml-aks", "current-context: test"));
        String variable = home.resolve("absent") + java.io.File.pathSeparator + other
                + java.io.File.pathSeparator + kubeconfig;
        AksSettings fromVariable = AksSettings.bind(new BackendConfig("aks", values), environment(variable, false));
        assertEquals(List.of(other, kubeconfig), fromVariable.kubeconfig().files());
        assertEquals(List.of("test-cluster"), fromVariable.kubeconfig().insecureClusters(),
                "the first file's current context");

        Path standard = home.resolve(".kube/config");
        Files.createDirectories(standard.getParent());
        Files.copy(kubeconfig, standard);
        AksSettings fromHome = AksSettings.bind(new BackendConfig("aks", values), environment(null, false));
        assertEquals(List.of(standard), fromHome.kubeconfig().files());
    }

    @Test
    void inAPodWithoutAKubeconfigThePodsAccountIsUsed() {
        Map<String, String> values = Map.of("namespace", "ml-jobs");
        AksSettings settings = AksSettings.bind(new BackendConfig("aks", values), environment(null, true));
        assertTrue(settings.kubeconfig().inCluster());
        assertEquals(List.of("backends.aks.kubeconfig: is not set, and neither is a kubeconfig found: KUBECONFIG is "
                + "not set and " + home.resolve(".kube/config") + " does not exist; run az aks get-credentials, or "
                + "set kubeconfig to the cluster's kubeconfig file"), problems(new BackendConfig("aks", values),
                environment(null, false)));
    }

    @Test
    void durationsMustBeAboveZeroWhereZeroMeansNothing() {
        Map<String, String> values = minimal();
        values.put("gangTimeout", "0s");
        values.put("shmSize", "0Gi");
        assertEquals(List.of("backends.aks.shmSize: '0Gi' is not a Kubernetes quantity above 0: a number with an "
                + "optional suffix such as Mi or Gi (binary) or M or G (decimal); e.g. 16Gi",
                "backends.aks.gangTimeout: must be above 0, got '0s'; e.g. 15m"), problems(values));
    }

    @Test
    void everyDeclaredKeyHasADescriptionAndOnlyTheNamespaceIsRequired() {
        assertEquals(List.of("namespace"), AksSettings.KEYS.stream().filter(ConfigKey::required)
                .map(ConfigKey::name).toList());
        assertTrue(AksSettings.KEYS.stream().noneMatch(k -> k.description().isBlank()));
    }
}
