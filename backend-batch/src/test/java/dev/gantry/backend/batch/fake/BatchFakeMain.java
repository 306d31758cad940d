package dev.gantry.backend.batch.fake;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;

/**
 * The Batch fake as a process, for scripts/test-batch.sh (end-to-end runs and the benchmark): it serves on loopback
 * only, writes a summary env file (0600), prints {@code ready URL account NAME control URL|off [auth entra]} and runs
 * until it is stopped (SIGTERM), when it kills every node's processes. Its nodes run tasks in the namespaces
 * {@code scripts/test-batch.sh nodes-up} makes (its {@code up} makes them first); without them it exits, naming that
 * command. Each pool scales by its own autoscale formula, evaluated every {@code --autoscale-interval} (1 second
 * unless given); an idle node stays {@code --node-retention} (30 seconds unless given) before scale-in removes it.
 * {@code --supported-image} adds an image to the built-in supported-images list (each time given), e.g. the
 * marketplace image Gantry's image catalog plans a workload on, so that {@code validate} accepts it:
 * {@code NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]}.
 *
 * <pre>
 * BatchFakeMain --env FILE [--key-file FILE] [--root DIR] [--account NAME] [--control] [--https]
 *               [--autoscale-interval ISO-8601] [--node-retention ISO-8601] [--active-job-quota N]
 *               [--supported-image NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]]...
 *               [--entra [--region REGION] [--truststore FILE] [--vm-size NAME=FAMILY:VCPUS]...]
 * </pre>
 *
 * <p>Without {@code --entra}: a Batch-managed account taking shared key (and tokens), plain HTTP unless
 * {@code --https}; its key is written to {@code --key-file} (0600, required). The env file holds
 * {@code BATCH_URL}, {@code BATCH_ACCOUNT}, {@code BATCH_AUTH=sharedKey}, {@code BATCH_KEY_FILE} and
 * {@code BATCH_CONTROL_URL} (empty without {@code --control}).
 *
 * <p>With {@code --entra}: what Spot needs, a user-subscription account with Microsoft Entra ID, as the kit's fixture
 * has in process, for a {@code gantry} CLI that can be handed no fake. The data plane serves HTTPS with the fakes'
 * test certificate and takes Entra tokens only (a shared key is refused). Beside it, in the same process: a Resource
 * Manager fake holding the account ({@code poolAllocationMode: UserSubscription}, resource group
 * {@value EntraAccount#RESOURCE_GROUP}, region {@code --region}, {@code eastus} unless given), which offers each
 * {@code --vm-size} to Batch in the region, Spot capable, with room in the regional, Spot and family vCPU usages
 * ({@code NAME=FAMILY:VCPUS}, e.g. {@code Standard_D2s_v5=standardDSv5Family:2}; repeatable), and serves its cloud
 * metadata document (cloud {@code GantryTestCloud}, for {@code ARM_CLOUD_METADATA_URL}); a managed identity endpoint
 * in App Service's contract (for {@code IDENTITY_ENDPOINT} and {@code IDENTITY_HEADER}), whose tokens are the ones
 * the Batch and Resource Manager fakes take; and a PKCS12 trust store holding only the fakes' certificate, written to
 * {@code --truststore} (default {@code truststore.p12} beside the env file). The account takes no shared key, so no
 * key is written: {@code --key-file} is optional, a file it names is removed (no stale key of an earlier run stays
 * readable) and {@code BATCH_KEY_FILE} is empty. The env file then holds {@code BATCH_AUTH=entra} and
 * {@code BATCH_REGION} (the account's region), {@code BATCH_RESOURCE_ID}, {@code BATCH_ARM_METADATA_URL},
 * {@code BATCH_IDENTITY_ENDPOINT}, {@code BATCH_IDENTITY_HEADER}, {@code BATCH_TRUSTSTORE} and {@code BATCH_TRUSTSTORE_PASSWORD} besides: start the
 * CLI with {@code ARM_CLOUD_METADATA_URL=$BATCH_ARM_METADATA_URL IDENTITY_ENDPOINT=$BATCH_IDENTITY_ENDPOINT
 * IDENTITY_HEADER=$BATCH_IDENTITY_HEADER} in its environment (azure-identity's managed identity reads them from the
 * process environment only) and {@code -Djavax.net.ssl.trustStore=$BATCH_TRUSTSTORE
 * -Djavax.net.ssl.trustStorePassword=$BATCH_TRUSTSTORE_PASSWORD -Djavax.net.ssl.trustStoreType=PKCS12}.
 */
public final class BatchFakeMain {
    private BatchFakeMain() {
    }

    public static void main(String[] args) throws Exception {
        Running running;
        try {
            running = start(List.of(args));
        } catch (BatchFakeFlags.Wrong e) {
            System.err.println("BatchFakeMain: " + e.getMessage() + "\n" + BatchFakeFlags.USAGE);
            System.exit(2);
            return;
        }
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            running.close();
            stopped.countDown();
        }));
        System.out.println(running.readyLine());
        System.out.flush();
        stopped.await();
    }

    /** A started fake with what runs beside it, and the env file written. */
    static final class Running implements AutoCloseable {
        final BatchFake fake;
        final Optional<EntraAccount> entra;
        final String controlUrl;

        private Running(BatchFake fake, Optional<EntraAccount> entra, String controlUrl) {
            this.fake = fake;
            this.entra = entra;
            this.controlUrl = controlUrl;
        }

        String readyLine() {
            return "ready " + fake.url() + " account " + fake.accountName() + " control "
                    + (controlUrl.isEmpty() ? "off" : controlUrl) + (entra.isPresent() ? " auth entra" : "");
        }

        @Override
        public void close() {
            fake.close();
            entra.ifPresent(EntraAccount::close);
        }
    }

    /**
     * Starts the fake as {@link #main} does, without waiting or exiting: what a test runs in process.
     *
     * @throws BatchFakeFlags.Wrong for a flag that cannot be used, before anything starts
     */
    static Running start(List<String> args) throws IOException {
        BatchFakeFlags flags = BatchFakeFlags.parse(args);
        if (flags.root != null) {
            flags.options.root(Files.createDirectories(flags.root));
        }
        BatchFake fake = new BatchFake(flags.options);
        try {
            fake.supportedImages(flags.images);
            Optional<EntraAccount> entra = flags.entra
                    ? Optional.of(EntraAccount.start(fake, flags.region, flags.sizes, flags.trustStore))
                    : Optional.empty();
            Running running = new Running(fake, entra, flags.control ? fake.startControl() : "");
            writeFiles(flags, running);
            return running;
        } catch (IOException | RuntimeException e) {
            fake.close();
            throw e;
        }
    }

    private static void writeFiles(BatchFakeFlags flags, Running running) throws IOException {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BATCH_URL", running.fake.url());
        env.put("BATCH_ACCOUNT", running.fake.accountName());
        env.put("BATCH_AUTH", flags.entra ? "entra" : "sharedKey");
        if (flags.entra) {
            if (flags.keyFile != null) {
                Files.deleteIfExists(flags.keyFile);
            }
            env.put("BATCH_KEY_FILE", "");
        } else {
            writePrivate(flags.keyFile, running.fake.accountKey() + "\n");
            env.put("BATCH_KEY_FILE", flags.keyFile.toAbsolutePath().toString());
        }
        env.put("BATCH_CONTROL_URL", running.controlUrl);
        running.entra.ifPresent(entra -> env.putAll(entra.env()));
        StringBuilder text = new StringBuilder("# Written by BatchFakeMain: the local Batch fake's account"
                + (flags.entra ? " (Entra ID, user subscription: no shared key, so BATCH_KEY_FILE is empty)" : "")
                + ".\n");
        env.forEach((name, value) -> text.append(name).append("=\"").append(shellQuoted(value)).append("\"\n"));
        writePrivate(flags.env, text.toString());
    }

    /** The value inside double quotes, as a shell that sources the file reads it back. */
    private static String shellQuoted(String value) {
        return value.replaceAll("([\"\\\\$`])", "\\\\$1");
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temporary = Files.createTempFile(parent, ".batch-fake", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temporary, text);
        Files.move(temporary, file, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
    }
}
