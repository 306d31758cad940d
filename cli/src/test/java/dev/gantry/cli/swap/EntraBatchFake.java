package dev.gantry.cli.swap;

import dev.gantry.cli.swap.TestBackends.PlannedSize;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The Batch fake as Spot needs it, in a process of its own ({@code BatchFakeMain --entra}, as scripts/test-batch.sh
 * starts it for scripts/e2e.sh): a user-subscription account over HTTPS taking Microsoft Entra ID tokens only, with
 * a Resource Manager fake and a managed identity endpoint beside it. A {@code gantry} that uses it runs in a JVM of
 * its own too ({@link #cli}): the Azure SDK's credential reads the identity endpoint from the process environment,
 * and the fakes' certificate must be in the JVM's trust store. Its control endpoint preempts the node that runs a
 * task, as Azure evicts a Spot VM; Batch requeues the task.
 */
final class EntraBatchFake implements AutoCloseable {
    private static final Pattern SIZE = Pattern.compile("Standard_([A-Z]+)\\d+([a-z]*)_v(\\d+)");
    private static final Pattern ENV_LINE = Pattern.compile("([A-Z_]+)=\"(.*)\"");

    private final Process process;
    private final Map<String, String> env;

    private EntraBatchFake(Process process, Map<String, String> env) {
        this.process = process;
        this.env = env;
    }

    /**
     * Starts the fake with its account in the planned region, offering the planned size (Spot capable) and
     * supporting the planned image; its files go to {@code directory}.
     */
    static EntraBatchFake start(Path directory, PlannedSize size, String nodeAgent) throws Exception {
        Path envFile = directory.resolve("batch.env");
        Path log = directory.resolve("batch-fake.log");
        String[] urn = size.imageUrn().split(":");
        Process process = new ProcessBuilder(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-cp", System.getProperty("java.class.path"), "dev.gantry.backend.batch.fake.BatchFakeMain",
                "--env", envFile.toString(), "--entra", "--control", "--account", size.region(),
                "--region", size.region(), "--node-retention", "PT5S",
                "--supported-image", nodeAgent + "=" + urn[0] + ":" + urn[1] + ":" + urn[2] + ",DockerCompatible",
                "--vm-size", size.vmSize() + "=" + family(size.vmSize()) + ":" + size.vcpus())
                .redirectErrorStream(true).redirectOutput(log.toFile()).start();
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60);
        while (!Files.readString(log).contains("ready ")) {
            if (!process.isAlive() || System.nanoTime() > deadline) {
                process.destroyForcibly();
                throw new AssertionError("the Batch fake (--entra) did not start: " + Files.readString(log));
            }
            Thread.sleep(100);
        }
        Map<String, String> env = new LinkedHashMap<>();
        for (String line : Files.readAllLines(envFile)) {
            Matcher matcher = ENV_LINE.matcher(line);
            if (matcher.matches()) {
                env.put(matcher.group(1), matcher.group(2).replaceAll("\\\\(.)", "$1"));
            }
        }
        return new EntraBatchFake(process, env);
    }

    /** The quota family Resource Manager gives a size: {@code Standard_E2as_v5} is {@code standardEASv5Family}. */
    private static String family(String vmSize) {
        Matcher matcher = SIZE.matcher(vmSize);
        return matcher.matches() ? "standard" + matcher.group(1) + matcher.group(2).toUpperCase(java.util.Locale.ROOT)
                + "v" + matcher.group(3) + "Family" : "standardTestFamily";
    }

    /** The batch section's account: the fake's URL, its region and Resource Manager id, signed in with Entra ID. */
    String account() {
        return "{url: \"" + env.get("BATCH_URL") + "\", region: " + env.get("BATCH_REGION") + ", auth: entra, "
                + "resourceId: \"" + env.get("BATCH_RESOURCE_ID") + "\"}";
    }

    /** A {@code gantry} in a JVM of its own that signs in to the fakes: the identity endpoint, the trust store. */
    CliLauncher cli(Path workingDirectory) {
        return CliLauncher.separate(workingDirectory, List.of(
                "-Djavax.net.ssl.trustStore=" + env.get("BATCH_TRUSTSTORE"),
                "-Djavax.net.ssl.trustStorePassword=" + env.get("BATCH_TRUSTSTORE_PASSWORD"),
                "-Djavax.net.ssl.trustStoreType=PKCS12"), Map.of(
                "ARM_CLOUD_METADATA_URL", env.get("BATCH_ARM_METADATA_URL"),
                "IDENTITY_ENDPOINT", env.get("BATCH_IDENTITY_ENDPOINT"),
                "IDENTITY_HEADER", env.get("BATCH_IDENTITY_HEADER")));
    }

    /**
     * Preempts the Spot node that runs the task of Gantry's job id ({@code POOL.JOB.TASK}) through the control
     * endpoint, as Azure evicts the VM.
     */
    void preempt(String backendJobId) throws IOException, InterruptedException {
        String[] parts = backendJobId.split("\\.", 3);
        HttpResponse<String> response = HttpClient.newHttpClient().send(HttpRequest.newBuilder(URI.create(
                env.get("BATCH_CONTROL_URL") + "/preempt?job=" + parts[1] + "&task=" + parts[2]))
                .POST(HttpRequest.BodyPublishers.noBody()).build(), HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() != 200) {
            throw new AssertionError("the Batch fake did not preempt " + backendJobId + ": " + response.statusCode()
                    + " " + response.body());
        }
    }

    @Override
    public void close() throws InterruptedException {
        process.destroy();
        if (!process.waitFor(10, TimeUnit.SECONDS)) {
            process.destroyForcibly();
        }
    }
}
