package dev.gantry.backend.batch.fake;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Path;
import java.time.Duration;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

/** {@link BatchFakeMain}'s flags, read once; a wrong one is a {@link Wrong} naming the flag, the value and the form. */
final class BatchFakeFlags {
    static final String USAGE = "usage: BatchFakeMain --env FILE [--key-file FILE] [--root DIR] [--account NAME] "
            + "[--control] [--https] [--autoscale-interval PT1S] [--node-retention PT30S] [--active-job-quota N] "
            + "[--supported-image NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]]... "
            + "[--entra [--region eastus] [--truststore FILE] [--vm-size NAME=FAMILY:VCPUS]...]\n"
            + "  --key-file is required without --entra (the shared key is written there); with --entra the account "
            + "takes no shared key";

    /** A flag that cannot be used: the message says which, and how it should read. */
    static final class Wrong extends IllegalArgumentException {
        Wrong(String message) {
            super(message);
        }
    }

    final BatchFakeOptions options = new BatchFakeOptions().autoscaleInterval(Duration.ofSeconds(1));
    final List<ObjectNode> images = new ArrayList<>(ImageRoutes.defaults());
    final List<OfferedSize> sizes = new ArrayList<>();
    Path env;
    Path keyFile;
    Path root;
    boolean control;
    boolean entra;
    String region = "eastus";
    Path trustStore;

    static BatchFakeFlags parse(List<String> args) {
        BatchFakeFlags flags = new BatchFakeFlags();
        List<String> rest = new ArrayList<>(args);
        List<String> entraOnly = new ArrayList<>();
        while (!rest.isEmpty()) {
            String flag = rest.remove(0);
            switch (flag) {
                case "--env" -> flags.env = Path.of(value(rest, flag));
                case "--key-file" -> flags.keyFile = Path.of(value(rest, flag));
                case "--root" -> flags.root = Path.of(value(rest, flag));
                case "--account" -> flags.options.account(value(rest, flag));
                case "--control" -> flags.control = true;
                case "--https" -> flags.options.https(true);
                case "--autoscale-interval" -> flags.options.autoscaleInterval(duration(rest, flag));
                case "--node-retention" -> wrapped(() -> flags.options.nodeRetention(duration(rest, flag)));
                case "--active-job-quota" -> flags.options.activeJobQuota(count(rest, flag));
                case "--supported-image" -> flags.images.add(supportedImage(value(rest, flag)));
                case "--entra" -> flags.entra = true;
                case "--region" -> {
                    flags.region = value(rest, flag);
                    entraOnly.add(flag);
                }
                case "--truststore" -> {
                    flags.trustStore = Path.of(value(rest, flag));
                    entraOnly.add(flag);
                }
                case "--vm-size" -> {
                    flags.sizes.add(wrapped(() -> OfferedSize.parse(value(rest, flag))));
                    entraOnly.add(flag);
                }
                default -> throw new Wrong("unknown flag " + flag);
            }
        }
        if (flags.env == null) {
            throw new Wrong("--env is required");
        }
        if (!flags.entra && flags.keyFile == null) {
            throw new Wrong("--key-file is required for a shared-key account (without --entra)");
        }
        if (!flags.entra && !entraOnly.isEmpty()) {
            throw new Wrong(String.join(", ", entraOnly) + (entraOnly.size() == 1 ? " describes" : " describe")
                    + " an Entra ID account: add --entra, or remove " + (entraOnly.size() == 1 ? "it" : "them"));
        }
        if (flags.entra) {
            // A user-subscription account takes bearer tokens only, which Azure sends over HTTPS only.
            flags.options.https(true).auth(false, true);
            if (flags.trustStore == null) {
                flags.trustStore = flags.env.toAbsolutePath().resolveSibling("truststore.p12");
            }
        }
        return flags;
    }

    private interface Parse<T> {
        T get();
    }

    /** A parse whose {@link IllegalArgumentException} is a {@link Wrong} flag. */
    private static <T> T wrapped(Parse<T> parse) {
        try {
            return parse.get();
        } catch (Wrong e) {
            throw e;
        } catch (IllegalArgumentException e) {
            throw new Wrong(e.getMessage());
        }
    }

    private static Duration duration(List<String> rest, String flag) {
        String text = value(rest, flag);
        try {
            return Duration.parse(text);
        } catch (DateTimeParseException e) {
            throw new Wrong(flag + " '" + text + "' is not an ISO-8601 duration, e.g. PT1S or PT30S");
        }
    }

    private static int count(List<String> rest, String flag) {
        String text = value(rest, flag);
        if (!text.matches("[0-9]{1,6}")) {
            throw new Wrong(flag + " '" + text + "' is not a whole number, e.g. 100");
        }
        return Integer.parseInt(text);
    }

    /** {@code NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...]} as Batch's ImageInformation, supported for ever. */
    private static ObjectNode supportedImage(String text) {
        String[] skuAndImage = text.split("=", 2);
        String[] imageAndCapabilities = skuAndImage.length == 2 ? skuAndImage[1].split(",") : new String[0];
        String[] urn = imageAndCapabilities.length > 0 ? imageAndCapabilities[0].split(":") : new String[0];
        if (urn.length != 3 || skuAndImage[0].isBlank()) {
            throw new Wrong("--supported-image '" + text + "' is not "
                    + "NODE_AGENT_SKU=PUBLISHER:OFFER:SKU[,CAPABILITY...], e.g. 'batch.node.ubuntu 22.04=microsoft-dsvm:ubuntu-2204:2204-gen2,DockerCompatible'");
        }
        return ImageRoutes.image(skuAndImage[0], urn[0], urn[1], urn[2], null,
                Arrays.copyOfRange(imageAndCapabilities, 1, imageAndCapabilities.length));
    }

    private static String value(List<String> rest, String flag) {
        if (rest.isEmpty()) {
            throw new Wrong(flag + " needs a value");
        }
        return rest.remove(0);
    }
}
