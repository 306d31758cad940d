package dev.gantry.azure.fakes;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * The cloud metadata document {@link ArmFake} serves at {@code GET /metadata/endpoints?api-version=...}, as Resource
 * Manager serves its own (no authentication: a client reads it before it can sign in): an array with one cloud,
 * {@link #CLOUD_NAME}, whose Resource Manager is the fake. Its members are those of the published example
 * ({@code cloud-metadata/AzureCloud.json} in the test resources); the audiences are the public cloud's management
 * audience first (what a client asks a token for) and the fake's own address, and the login endpoint is the public
 * one, which a managed identity never calls.
 */
public final class CloudMetadata {
    /** The name of the fake's cloud in its metadata document. */
    public static final String CLOUD_NAME = "GantryTestCloud";
    /** The API version the document is asked with, as the Azure CLI asks. */
    static final String API_VERSION = "2019-05-01";
    static final String PATH = "/metadata/endpoints";
    public static final String MANAGEMENT_AUDIENCE = "https://management.core.windows.net/";
    public static final String BATCH_AUDIENCE = "https://batch.core.windows.net/";

    private CloudMetadata() {
    }

    /** The document for a Resource Manager at {@code baseUrl} (no trailing slash). */
    static ArrayNode document(ObjectMapper json, String baseUrl) {
        ArrayNode clouds = json.createArrayNode();
        ObjectNode cloud = clouds.addObject();
        cloud.put("portal", "https://portal.azure.com");
        ObjectNode authentication = cloud.putObject("authentication");
        authentication.put("loginEndpoint", "https://login.microsoftonline.com/");
        authentication.putArray("audiences").add(MANAGEMENT_AUDIENCE).add(baseUrl + "/");
        authentication.put("tenant", "common").put("identityProvider", "AAD");
        cloud.put("media", "https://rest.media.azure.net");
        cloud.put("graphAudience", "https://graph.windows.net/");
        cloud.put("graph", "https://graph.windows.net/");
        cloud.put("name", CLOUD_NAME);
        cloud.putObject("suffixes").put("azureDataLakeStoreFileSystem", "azuredatalakestore.net")
                .put("acrLoginServer", "azurecr.io").put("sqlServerHostname", ".database.windows.net")
                .put("azureDataLakeAnalyticsCatalogAndJob", "azuredatalakeanalytics.net")
                .put("keyVaultDns", "vault.azure.net").put("storage", "core.windows.net")
                .put("azureFrontDoorEndpointSuffix", "azurefd.net");
        cloud.put("batch", BATCH_AUDIENCE);
        cloud.put("resourceManager", baseUrl + "/");
        cloud.put("vmImageAliasDoc", "https://raw.githubusercontent.com/Azure/azure-rest-api-specs/master/"
                + "arm-compute/quickstart-templates/aliases.json");
        cloud.put("activeDirectoryDataLake", "https://datalake.azure.net/");
        cloud.put("sqlManagement", "https://management.core.windows.net:8443/");
        cloud.put("gallery", "https://gallery.azure.com/");
        return clouds;
    }
}
