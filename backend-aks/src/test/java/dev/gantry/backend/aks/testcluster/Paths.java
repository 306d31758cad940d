package dev.gantry.backend.aks.testcluster;

/** REST paths of the kinds the test cluster plays a controller for. */
final class Paths {
    private Paths() {
    }

    static String pods(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/pods";
    }

    static String pod(String namespace, String name) {
        return pods(namespace) + "/" + name;
    }

    static String jobs(String namespace) {
        return "/apis/batch/v1/namespaces/" + namespace + "/jobs";
    }

    static String job(String namespace, String name) {
        return jobs(namespace) + "/" + name;
    }

    static String services(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/services";
    }

    static String secrets(String namespace) {
        return "/api/v1/namespaces/" + namespace + "/secrets";
    }

    static String secret(String namespace, String name) {
        return secrets(namespace) + "/" + name;
    }

    static String nodes() {
        return "/api/v1/nodes";
    }

    static String node(String name) {
        return nodes() + "/" + name;
    }

    static String namespaces() {
        return "/api/v1/namespaces";
    }
}
