package dev.gantry.backend.batch.internal.validate;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.batch.protocol.models.ImageInformation;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.Objects;
import java.util.function.Supplier;

/**
 * The images an account supports ({@code GET /supportedimages}), kept in the state directory for a day so that
 * {@code validate} lists them at most daily: the list changes when Batch adds or retires an image, not between runs.
 * A cache that cannot be read or written is ignored, never an error: the list is asked again.
 */
public final class SupportedImages {
    /** How long a listed set is used before Batch is asked again. */
    public static final Duration MAX_AGE = Duration.ofDays(1);
    private static final ObjectMapper JSON = new ObjectMapper();

    private final Path cacheFile;
    private final Clock clock;
    private final Supplier<List<SupportedImage>> list;

    /**
     * @param cacheFile where the list is kept, e.g. {@code STATE/batch/supported-images/ACCOUNT-HOST.json}
     * @param list asks Batch ({@link #listed(BatchServiceClient)}, through the account's calls)
     */
    public SupportedImages(Path cacheFile, Clock clock, Supplier<List<SupportedImage>> list) {
        this.cacheFile = Objects.requireNonNull(cacheFile, "cacheFile");
        this.clock = Objects.requireNonNull(clock, "clock");
        this.list = Objects.requireNonNull(list, "list");
    }

    /** The cache of an account in the state directory, asking its protocol client when the cache is stale. */
    public static SupportedImages of(Path stateDirectory, String accountHost, Clock clock, AccountCalls calls) {
        return new SupportedImages(stateDirectory.resolve("batch").resolve("supported-images")
                .resolve(accountHost.replaceAll("[^A-Za-z0-9.-]", "_") + ".json"), clock,
                () -> calls.call("listing the images Batch account " + accountHost + " supports",
                        SupportedImages::listed));
    }

    /** Every supported image, all pages ({@code Account_ListSupportedImages}). */
    public static List<SupportedImage> listed(BatchServiceClient batch) {
        List<ImageInformation> images = batch.accounts().listSupportedImages();
        images.size(); // a PagedList loads the next pages as it is read; size() reads them all
        return images.stream().map(SupportedImage::of).toList();
    }

    /** The list: from the cache when it is under a day old, else from Batch (and cached). */
    public synchronized List<SupportedImage> get() {
        Instant now = clock.instant();
        try {
            if (Files.isRegularFile(cacheFile)) {
                JsonNode cached = JSON.readTree(cacheFile.toFile());
                Instant listedAt = Instant.parse(cached.path("listedAt").asText());
                if (!listedAt.isAfter(now) && Duration.between(listedAt, now).compareTo(MAX_AGE) < 0) {
                    return images(cached.path("images"));
                }
            }
        } catch (IOException | RuntimeException e) {
            // An unreadable cache (a crash mid-write, an older shape) is listed again below.
        }
        List<SupportedImage> images = list.get();
        write(now, images);
        return images;
    }

    private void write(Instant listedAt, List<SupportedImage> images) {
        ObjectNode file = JSON.createObjectNode().put("listedAt", listedAt.toString());
        ArrayNode list = file.putArray("images");
        for (SupportedImage image : images) {
            ObjectNode entry = list.addObject().put("nodeAgentSku", image.nodeAgentSku())
                    .put("publisher", image.publisher()).put("offer", image.offer()).put("sku", image.sku());
            image.capabilities().stream().sorted().forEach(entry.putArray("capabilities")::add);
            image.endOfLife().ifPresent(time -> entry.put("endOfLife", time.toString()));
        }
        try {
            Files.createDirectories(cacheFile.getParent());
            Path partial = cacheFile.resolveSibling(cacheFile.getFileName() + ".partial");
            JSON.writeValue(partial.toFile(), file);
            Files.move(partial, cacheFile, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            // Not cached: the next validate lists again, which costs one call, never a wrong answer.
        }
    }

    private static List<SupportedImage> images(JsonNode list) {
        List<SupportedImage> images = new ArrayList<>();
        for (JsonNode entry : list) {
            Set<String> capabilities = new HashSet<>();
            entry.path("capabilities").forEach(capability -> capabilities.add(capability.asText()));
            images.add(new SupportedImage(entry.path("nodeAgentSku").asText(), entry.path("publisher").asText(),
                    entry.path("offer").asText(), entry.path("sku").asText(), capabilities,
                    entry.hasNonNull("endOfLife") ? Optional.of(Instant.parse(entry.get("endOfLife").asText()))
                            : Optional.empty()));
        }
        return images;
    }
}
