package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CountDownLatch;

/**
 * The Batch fake as a process, for scripts/test-batch.sh (end-to-end runs and the benchmark): it serves on loopback
 * only, writes the account key to a file (0600) and a summary env file, prints {@code ready URL} and runs until it is
 * stopped (SIGTERM), when it kills every node's processes. Its nodes run tasks in the namespaces
 * {@code scripts/test-batch.sh nodes-up} makes (its {@code up} makes them first); without them it exits, naming that
 * command. Each pool scales by its own autoscale formula, evaluated every {@code --autoscale-interval} (1 second
 * unless given); an idle node stays {@code --node-retention} (30 seconds unless given) before scale-in removes it.
 * {@code --supported-image} adds an image to the built-in supported-images list (each time given), e.g. the
 * marketplace image Gantry's image catalog plans a workload on, so that {@code validate} accepts it:
 * {@code NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]}.
 *
 * <pre>
 * BatchFakeMain --env FILE --key-file FILE [--root DIR] [--account NAME] [--control] [--https]
 *               [--autoscale-interval ISO-8601] [--node-retention ISO-8601] [--active-job-quota N]
 *               [--supported-image NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]]...
 * </pre>
 * The env file holds BATCH_URL, BATCH_ACCOUNT, BATCH_KEY_FILE and BATCH_CONTROL_URL (empty without
 * {@code --control}).
 */
public final class BatchFakeMain {
    private BatchFakeMain() {
    }

    public static void main(String[] args) throws Exception {
        BatchFakeOptions options = new BatchFakeOptions().autoscaleInterval(Duration.ofSeconds(1));
        Path env = null;
        Path keyFile = null;
        boolean control = false;
        List<ObjectNode> images = new ArrayList<>(ImageRoutes.defaults());
        List<String> rest = new ArrayList<>(List.of(args));
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            switch (flag) {
                case "--env" -> env = Path.of(value(rest, flag));
                case "--key-file" -> keyFile = Path.of(value(rest, flag));
                case "--root" -> options.root(Files.createDirectories(Path.of(value(rest, flag))));
                case "--account" -> options.account(value(rest, flag));
                case "--control" -> control = true;
                case "--https" -> options.https(true);
                case "--autoscale-interval" -> options.autoscaleInterval(Duration.parse(value(rest, flag)));
                case "--node-retention" -> options.nodeRetention(Duration.parse(value(rest, flag)));
                case "--active-job-quota" -> options.activeJobQuota(Integer.parseInt(value(rest, flag)));
                case "--supported-image" -> images.add(supportedImage(value(rest, flag)));
                default -> usage("unknown flag " + flag);
            }
        }
        if (env == null || keyFile == null) {
            usage("--env and --key-file are required");
        }
        BatchFake fake = new BatchFake(options);
        fake.supportedImages(images);
        String controlUrl = control ? fake.startControl() : "";
        writePrivate(keyFile, fake.accountKey() + "\n");
        writePrivate(env, "# Written by BatchFakeMain: the local Batch fake's account.\n"
                + "BATCH_URL=\"" + fake.url() + "\"\n"
                + "BATCH_ACCOUNT=\"" + fake.accountName() + "\"\n"
                + "BATCH_KEY_FILE=\"" + keyFile.toAbsolutePath() + "\"\n"
                + "BATCH_CONTROL_URL=\"" + controlUrl + "\"\n");
        CountDownLatch stopped = new CountDownLatch(1);
        Runtime.getRuntime().addShutdownHook(new Thread(() -> {
            fake.close();
            stopped.countDown();
        }));
        System.out.println("ready " + fake.url() + " account " + fake.accountName() + " control "
                + (control ? controlUrl : "off"));
        System.out.flush();
        stopped.await();
    }

    private static void writePrivate(Path file, String text) throws IOException {
        Path parent = file.toAbsolutePath().getParent();
        Files.createDirectories(parent);
        Path temporary = Files.createTempFile(parent, ".batch-fake", ".tmp",
                PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rw-------")));
        Files.writeString(temporary, text);
        Files.move(temporary, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                java.nio.file.StandardCopyOption.ATOMIC_MOVE);
    }

    /** {@code NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]} as Batch's ImageInformation, supported for ever. */
    private static ObjectNode supportedImage(String text) {
        String[] skuAndImage = text.split("=", 2);
        String[] imageAndCapabilities = skuAndImage.length == 2 ? skuAndImage[1].split(",") : new String[0];
        String[] urn = imageAndCapabilities.length > 0 ? imageAndCapabilities[0].split(":") : new String[0];
        if (urn.length != 3 || skuAndImage[0].isBlank()) {
            usage("--supported-image '" + text + "' is not NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...], e.g. "
                    + "'batch.node.ubuntu 22.04=microsoft-dsvm:ubuntu-2204:2204-gen2,DockerCompatible'");
        }
        return ImageRoutes.image(skuAndImage[0], urn[0], urn[1], urn[2], null,
                Arrays.copyOfRange(imageAndCapabilities, 1, imageAndCapabilities.length));
    }

    private static String value(List<String> rest, String flag) {
        if (rest.isEmpty()) {
            usage(flag + " needs a value");
        }
        return rest.remove(0);
    }

    private static void usage(String problem) {
        System.err.println("BatchFakeMain: " + problem + "\nusage: BatchFakeMain --env FILE --key-file FILE "
                + "[--root DIR] [--account NAME] [--control] [--https] [--autoscale-interval PT1S] "
                + "[--node-retention PT30S] [--active-job-quota N] "
                + "[--supported-image NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]]...");
        System.exit(2);
    }
}
