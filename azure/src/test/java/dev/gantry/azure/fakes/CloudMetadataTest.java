package dev.gantry.azure.fakes;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.InputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/** ArmFake's cloud metadata document against the published example of Resource Manager's. */
class CloudMetadataTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @Test
    void theFakeServesItsCloudWithoutAuthenticationInThePublishedShape() throws Exception {
        try (ArmFake arm = new ArmFake()) {
            HttpResponse<String> answer = get(arm.metadataUrl());
            assertEquals(200, answer.statusCode(), answer.body());
            JsonNode clouds = JSON.readTree(answer.body());
            JsonNode published = published();
            assertEquals(1, clouds.size());
            JsonNode cloud = clouds.get(0);
            assertEquals(names(published.get(0)), names(cloud));
            assertEquals(names(published.get(0).get("authentication")), names(cloud.get("authentication")));
            assertEquals(names(published.get(0).get("suffixes")), names(cloud.get("suffixes")));
            assertEquals(CloudMetadata.CLOUD_NAME, cloud.get("name").asText());
            assertEquals(arm.baseUrl() + "/", cloud.get("resourceManager").asText());
            assertEquals(List.of("https://management.core.windows.net/", arm.baseUrl() + "/"),
                    JSON.convertValue(cloud.at("/authentication/audiences"), List.class));
            assertEquals("https://login.microsoftonline.com/", cloud.at("/authentication/loginEndpoint").asText());
            assertEquals("https://batch.core.windows.net/", cloud.get("batch").asText());
        }
    }

    @Test
    void withoutAnApiVersionTheDocumentIsRefusedAsResourceManagerRefusesIt() throws Exception {
        try (ArmFake arm = new ArmFake()) {
            HttpResponse<String> answer = get(arm.baseUrl() + "/metadata/endpoints");
            assertEquals(400, answer.statusCode());
            assertEquals("MissingApiVersionParameter", JSON.readTree(answer.body()).at("/error/code").asText());
        }
    }

    private static HttpResponse<String> get(String url) throws Exception {
        HttpClient http = HttpClient.newBuilder().sslContext(LocalHttps.trustingContext()).build();
        return http.send(HttpRequest.newBuilder(URI.create(url)).build(), HttpResponse.BodyHandlers.ofString());
    }

    private static JsonNode published() throws Exception {
        try (InputStream in = CloudMetadataTest.class.getResourceAsStream("/cloud-metadata/AzureCloud.json")) {
            return JSON.readTree(in);
        }
    }

    private static Set<String> names(JsonNode object) {
        Set<String> names = new TreeSet<>();
        object.fieldNames().forEachRemaining(names::add);
        return names;
    }
}
