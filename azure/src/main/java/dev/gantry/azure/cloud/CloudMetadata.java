package dev.gantry.azure.cloud;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;

/**
 * Reads Resource Manager's cloud metadata document ({@code GET /metadata/endpoints?api-version=2019-05-01}): a JSON
 * array of clouds, or one cloud object as newer api-versions answer. Picks a cloud as the Azure CLI does: the one
 * whose {@code name} is {@code AZURE_CLOUD} (ignoring case) when that is set, else the first. Of each cloud it reads
 * {@code name}, {@code resourceManager}, {@code authentication.loginEndpoint}, {@code authentication.audiences[0]}
 * (the management audience) and {@code batch} (Batch's resource id); every other field is left alone.
 */
final class CloudMetadata {
    static final String FIELDS = "name, resourceManager, authentication.loginEndpoint, authentication.audiences[0] "
            + "and batch";
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POINT_AT_ARM = "point " + CloudChoice.ARM_CLOUD_METADATA_URL + " at Resource "
            + "Manager's metadata endpoint, e.g. "
            + "https://management.azure.com/metadata/endpoints?api-version=2019-05-01";

    private CloudMetadata() {
    }

    /**
     * The cloud the document describes.
     *
     * @param document the answer's body
     * @param source where it came from, named in every error
     * @param wanted the value of {@code AZURE_CLOUD}, empty when unset
     */
    static AzureCloud select(String document, URI source, Optional<String> wanted) {
        List<JsonNode> clouds = clouds(document, source);
        JsonNode chosen = wanted.map(name -> named(clouds, name, source)).orElse(clouds.get(0));
        return cloud(chosen, source);
    }

    private static List<JsonNode> clouds(String document, URI source) {
        JsonNode root;
        try {
            root = JSON.readTree(document);
        } catch (JsonProcessingException e) {
            throw remote("the answer of " + source + " is not JSON (" + e.getOriginalMessage() + "); "
                    + POINT_AT_ARM);
        }
        List<JsonNode> clouds = new ArrayList<>();
        if (root != null && root.isArray()) {
            root.forEach(clouds::add);
        } else if (root != null && root.isObject()) {
            clouds.add(root);
        } else {
            throw remote(source + " answered neither a JSON array of clouds nor one cloud object; " + POINT_AT_ARM);
        }
        if (clouds.isEmpty()) {
            throw remote(source + " lists no clouds; " + POINT_AT_ARM);
        }
        return clouds;
    }

    private static JsonNode named(List<JsonNode> clouds, String wanted, URI source) {
        String lower = wanted.toLowerCase(Locale.ROOT);
        List<String> names = new ArrayList<>();
        for (JsonNode cloud : clouds) {
            String name = cloud.path("name").asText("");
            if (name.toLowerCase(Locale.ROOT).equals(lower)) {
                return cloud;
            }
            if (!name.isBlank()) {
                names.add(name);
            }
        }
        throw new GantryException(ErrorCode.USAGE, CloudChoice.AZURE_CLOUD + ": '" + wanted + "' is not a cloud in "
                + "the metadata document at " + source + ", which has " + (names.isEmpty() ? "no named cloud"
                : String.join(", ", names)) + "; set " + CloudChoice.AZURE_CLOUD + " to one of them, or unset it to "
                + "take the first");
    }

    private static AzureCloud cloud(JsonNode cloud, URI source) {
        String name = required(cloud.path("name"), "name", "the chosen cloud", source);
        String which = "the cloud '" + name + "'";
        JsonNode authentication = cloud.path("authentication");
        return new AzureCloud(name,
                url(cloud.path("resourceManager"), "resourceManager", which, source),
                url(authentication.path("loginEndpoint"), "authentication.loginEndpoint", which, source),
                required(authentication.path("audiences").path(0), "authentication.audiences[0]", which, source),
                required(cloud.path("batch"), "batch", which, source));
    }

    private static URI url(JsonNode field, String path, String which, URI source) {
        String value = required(field, path, which, source);
        return SecureUrl.parse(value).orElseThrow(() -> remote(which + " in the metadata document at " + source
                + " has " + path + " '" + value + "', which is not an https URL (http only to a loopback address such "
                + "as 127.0.0.1); fix the document, or " + POINT_AT_ARM));
    }

    private static String required(JsonNode field, String path, String which, URI source) {
        if (!field.isTextual() || field.asText().isBlank()) {
            throw remote(which + " in the metadata document at " + source + " has no " + path + "; Gantry reads "
                    + FIELDS + " of a cloud; " + POINT_AT_ARM);
        }
        return field.asText().strip();
    }

    private static GantryException remote(String problem) {
        return new GantryException(ErrorCode.REMOTE_ERROR, CloudChoice.ARM_CLOUD_METADATA_URL + ": " + problem);
    }
}
