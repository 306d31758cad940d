package dev.gantry.backend.aks.testcluster;

import java.nio.charset.StandardCharsets;
import java.util.Base64;

/** A kubeconfig for one user of the test cluster, verifying the server against its certificate. */
final class Kubeconfig {
    static final String CLUSTER = "gantry-test";

    private Kubeconfig() {
    }

    static String render(String server, String certificatePem, String user, String token, String namespace) {
        String ca = Base64.getEncoder().encodeToString(certificatePem.getBytes(StandardCharsets.US_ASCII));
        String context = CLUSTER + "-" + user;
        return """
                apiVersion: v1
                kind: Config
                clusters:
                - name: %1$s
                  cluster:
                    server: %2$s
                    certificate-authority-data: %3$s
                users:
                - name: %4$s
                  user:
                    token: %5$s
                contexts:
                - name: %6$s
                  context:
                    cluster: %1$s
                    user: %4$s
                    namespace: %7$s
                current-context: %6$s
                """.formatted(CLUSTER, server, ca, user, token, context, namespace);
    }
}
