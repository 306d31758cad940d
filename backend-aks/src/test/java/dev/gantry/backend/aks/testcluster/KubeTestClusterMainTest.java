package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubeTestClusterMainTest {
    @TempDir
    Path work;

    @Test
    void asAProcessItWritesTheKubeconfigAndServesUntilStopped() throws Exception {
        Path kubeconfig = work.resolve("kube/config");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        Process process = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                KubeTestCluster.class.getName(), "--kubeconfig", kubeconfig.toString(), "--namespace", "e2e",
                "--work", work.resolve("cluster").toString(), "--host-network",
                "--node-type", "Standard_E2as_v5,cpu=2,memory=16Gi").redirectErrorStream(true).start();
        try (BufferedReader out = new BufferedReader(new InputStreamReader(process.getInputStream(),
                StandardCharsets.UTF_8))) {
            String line;
            do {
                line = out.readLine();
            } while (line != null && !line.startsWith("ready "));
            assertTrue(line != null && line.matches("ready https://127\\.0\\.0\\.1:[0-9]+ namespace e2e nodes .+"),
                    String.valueOf(line));
            Config config = Config.fromKubeconfig(Files.readString(kubeconfig));
            try (KubernetesClient client = new KubernetesClientBuilder().withConfig(config).build()) {
                assertEquals("e2e", client.namespaces().withName("e2e").get().getMetadata().getName());
                assertEquals(2, client.nodes().list().getItems().size());
                assertEquals(List.of("Standard_E2as_v5", "Standard_E2as_v5"), client.nodes().list().getItems().stream()
                        .map(node -> node.getMetadata().getLabels().get(NodeTemplate.INSTANCE_TYPE)).toList(),
                        "one --node-type: both nodes of that size");
            }
        } finally {
            process.destroy();
            assertTrue(process.waitFor(20, TimeUnit.SECONDS), "stops on SIGTERM");
        }
    }

    @Test
    void aBadOptionIsNamedWithWhatIsAllowed() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> KubeTestClusterMain.run(new String[] {"--kubeconfig", "x", "--nodes", "3"}));
        assertTrue(e.getMessage().startsWith("unknown option '--nodes'; allowed: --kubeconfig FILE"), e.getMessage());
        IllegalArgumentException port = assertThrows(IllegalArgumentException.class,
                () -> KubeTestClusterMain.run(new String[] {"--port", "http"}));
        assertEquals("--port 'http' is not a port: 0 (any free port) to 65535", port.getMessage());
        assertEquals("--node-type is given 3 times; the test cluster has 2 nodes: give one type for both, or one per"
                + " node", assertThrows(IllegalArgumentException.class, () -> KubeTestClusterMain.run(new String[] {
                    "--kubeconfig", "x", "--node-type", "A,cpu=1,memory=1Gi", "--node-type", "B,cpu=1,memory=1Gi",
                    "--node-type", "C,cpu=1,memory=1Gi"})).getMessage());
        assertTrue(assertThrows(IllegalArgumentException.class, () -> KubeTestClusterMain.run(new String[0]))
                .getMessage().startsWith("--kubeconfig FILE is required"));
    }
}
