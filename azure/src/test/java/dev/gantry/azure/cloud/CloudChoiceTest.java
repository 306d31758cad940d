package dev.gantry.azure.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpServer;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.fakes.LocalHttps;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class CloudChoiceTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final String POINT_AT_ARM = "point ARM_CLOUD_METADATA_URL at Resource Manager's metadata "
            + "endpoint, e.g. https://management.azure.com/metadata/endpoints?api-version=2019-05-01";

    private final Map<String, String> environment = new HashMap<>();
    private final List<String> served = new CopyOnWriteArrayList<>();

    @Test
    void withoutAVariableThePublicCloudIsChosenWithoutARequest() {
        assertSame(AzureCloud.PUBLIC, noFetching().resolve());
        environment.put("AZURE_CLOUD", " ");
        environment.put("ARM_CLOUD_METADATA_URL", "");
        assertSame(AzureCloud.PUBLIC, noFetching().resolve(), "an empty variable is an unset one");
    }

    @Test
    void azureCloudChoosesAPresetWithoutARequest() {
        environment.put("AZURE_CLOUD", "AzureChinaCloud");
        assertSame(AzureCloud.CHINA, noFetching().resolve());
        environment.put("AZURE_CLOUD", "azureusgovernment");
        assertSame(AzureCloud.US_GOVERNMENT, noFetching().resolve());
    }

    @Test
    void anUnknownCloudNameIsAUsageErrorListingThePresets() {
        environment.put("AZURE_CLOUD", "AzureMars");
        GantryException e = assertThrows(GantryException.class, () -> noFetching().resolve());
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("AZURE_CLOUD: 'AzureMars' is not a cloud Gantry knows; one of AzureCloud, AzureChinaCloud, "
                + "AzureUSGovernment, or set ARM_CLOUD_METADATA_URL to your cloud's metadata endpoint",
                e.getMessage());
    }

    @Test
    void theFirstCloudOfTheDocumentIsChosenOverHttpsWithTheJvmsKindOfClient() throws Exception {
        ArrayNode document = JSON.createArrayNode().add(stackCloud()).add(chinaCloudAsArmWritesIt());
        var server = LocalHttps.start(answering(200, document.toString()));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints?api-version=2019-05-01";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            AzureCloud cloud = trusting().resolve();
            assertEquals(new AzureCloud("AzureStack", URI.create("https://management.local.azurestack.external/"),
                    URI.create("https://login.microsoftonline.com/"),
                    "https://management.contoso.onmicrosoft.com/a1b2c3d4-0000-4000-8000-000000000001",
                    "https://batch.local.azurestack.external/"), cloud);
            assertEquals("https://batch.local.azurestack.external//.default", cloud.batchScope());
            assertEquals(List.of("GET /metadata/endpoints?api-version=2019-05-01 application/json"), served);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void azureCloudPicksTheDocumentsEntryOfThatNameIgnoringCase() throws Exception {
        ArrayNode document = JSON.createArrayNode().add(stackCloud()).add(chinaCloudAsArmWritesIt());
        var server = LocalHttps.start(answering(200, document.toString()));
        try {
            environment.put("ARM_CLOUD_METADATA_URL", LocalHttps.baseUrl(server) + "/metadata/endpoints");
            environment.put("AZURE_CLOUD", "azurechinacloud");
            AzureCloud cloud = trusting().resolve();
            assertEquals("AzureChinaCloud", cloud.name());
            assertEquals(URI.create("https://management.chinacloudapi.cn/"), cloud.resourceManager());
            assertEquals(URI.create("https://login.chinacloudapi.cn/"), cloud.authorityHost());
            assertEquals("https://management.core.chinacloudapi.cn", cloud.managementAudience());
            assertEquals(AzureCloud.CHINA.batchScope(), cloud.batchScope());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aNameTheDocumentLacksIsAUsageErrorListingItsNames() throws Exception {
        ArrayNode document = JSON.createArrayNode().add(stackCloud()).add(chinaCloudAsArmWritesIt());
        var server = LocalHttps.start(answering(200, document.toString()));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            environment.put("AZURE_CLOUD", "AzureMars");
            GantryException e = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals(ErrorCode.USAGE, e.code());
            assertEquals("AZURE_CLOUD: 'AzureMars' is not a cloud in the metadata document at " + url + ", which "
                    + "has AzureStack, AzureChinaCloud; set AZURE_CLOUD to one of them, or unset it to take the "
                    + "first", e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aSingleCloudObjectOverLoopbackHttpIsRead() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", answering(200, stackCloud().toString()));
        server.start();
        try {
            environment.put("ARM_CLOUD_METADATA_URL", "http://127.0.0.1:" + server.getAddress().getPort()
                    + "/metadata/endpoints?api-version=2022-09-01");
            AzureCloud cloud = new CloudChoice(environment::get, HttpClient::newHttpClient).resolve();
            assertEquals("AzureStack", cloud.name());
            assertEquals(1, served.size());
        } finally {
            server.stop(0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"name", "resourceManager", "authentication.loginEndpoint", "authentication.audiences[0]",
            "batch"})
    void aDocumentWithoutAFieldNamesTheFieldAndTheUrl(String field) throws Exception {
        ObjectNode cloud = stackCloud();
        switch (field) {
            case "authentication.loginEndpoint" -> ((ObjectNode) cloud.get("authentication")).remove("loginEndpoint");
            case "authentication.audiences[0]" -> ((ObjectNode) cloud.get("authentication")).putArray("audiences");
            default -> cloud.remove(field);
        }
        var server = LocalHttps.start(answering(200, JSON.createArrayNode().add(cloud).toString()));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            GantryException e = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            String which = field.equals("name") ? "the chosen cloud" : "the cloud 'AzureStack'";
            assertEquals("ARM_CLOUD_METADATA_URL: " + which + " in the metadata document at " + url + " has no "
                    + field + "; Gantry reads name, resourceManager, authentication.loginEndpoint, "
                    + "authentication.audiences[0] and batch of a cloud; " + POINT_AT_ARM, e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aDocumentSendingRequestsOverPlainHttpElsewhereIsRefused() throws Exception {
        ObjectNode cloud = stackCloud().put("resourceManager", "http://management.example.com/");
        var server = LocalHttps.start(answering(200, cloud.toString()));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            GantryException e = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            assertEquals("ARM_CLOUD_METADATA_URL: the cloud 'AzureStack' in the metadata document at " + url
                    + " has resourceManager 'http://management.example.com/', which is not an https URL (http only "
                    + "to a loopback address such as 127.0.0.1); fix the document, or " + POINT_AT_ARM,
                    e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://arm.example.com/metadata/endpoints", "http://10.0.0.1/metadata/endpoints",
            "management.azure.com/metadata/endpoints", "ftp://127.0.0.1/metadata", "https://"})
    void aMetadataUrlThatIsNotHttpsOrLoopbackHttpIsAUsageErrorBeforeAnyRequest(String url) {
        environment.put("ARM_CLOUD_METADATA_URL", url);
        GantryException e = assertThrows(GantryException.class, () -> noFetching().resolve());
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("ARM_CLOUD_METADATA_URL: '" + url + "' is not an https URL; set it to your cloud's metadata "
                + "endpoint, e.g. https://management.azure.com/metadata/endpoints?api-version=2019-05-01 (plain "
                + "http only to a loopback address such as http://127.0.0.1:PORT/, for a local test cloud)",
                e.getMessage());
    }

    @Test
    void anErrorStatusNamesTheUrlAndTheStatus() throws Exception {
        var server = LocalHttps.start(answering(404, "{\"error\":{\"code\":\"NotFound\"}}"));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoint";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            GantryException e = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            assertEquals("ARM_CLOUD_METADATA_URL: could not read the cloud metadata at " + url + ": it answered "
                    + "HTTP 404; check that it is Resource Manager's metadata endpoint (.../metadata/endpoints"
                    + "?api-version=2019-05-01)", e.getMessage());
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anAnswerThatIsNoCloudDocumentSaysSo() throws Exception {
        var server = LocalHttps.start(answering(200, "[]"));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            GantryException empty = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals("ARM_CLOUD_METADATA_URL: " + url + " lists no clouds; " + POINT_AT_ARM, empty.getMessage());
        } finally {
            server.stop(0);
        }
        var html = LocalHttps.start(answering(200, "<html>sign in</html>"));
        try {
            environment.put("ARM_CLOUD_METADATA_URL", LocalHttps.baseUrl(html) + "/");
            GantryException e = assertThrows(GantryException.class, () -> trusting().resolve());
            assertEquals(ErrorCode.REMOTE_ERROR, e.code());
            assertTrue(e.getMessage().startsWith("ARM_CLOUD_METADATA_URL: the answer of " + LocalHttps.baseUrl(html)
                    + "/ is not JSON (") && e.getMessage().endsWith(POINT_AT_ARM), e.getMessage());
        } finally {
            html.stop(0);
        }
    }

    @Test
    void anUntrustedCertificateTellsHowToTrustAPrivateCa() throws Exception {
        var server = LocalHttps.start(answering(200, stackCloud().toString()));
        try {
            String url = LocalHttps.baseUrl(server) + "/metadata/endpoints";
            environment.put("ARM_CLOUD_METADATA_URL", url);
            // The JVM's own trust store, which does not hold the local fakes' throwaway certificate.
            GantryException e = assertThrows(GantryException.class,
                    () -> new CloudChoice(environment::get, HttpClient::newHttpClient).resolve());
            assertEquals(ErrorCode.AUTH_FAILED, e.code());
            assertTrue(e.getMessage().startsWith("ARM_CLOUD_METADATA_URL: could not read the cloud metadata at " + url
                    + ": its TLS certificate is not trusted ("), e.getMessage());
            assertTrue(e.getMessage().endsWith("; when a private CA signed it, give Java a trust store holding that "
                    + "CA: GANTRY_JAVA_OPTS='-Djavax.net.ssl.trustStore=FILE "
                    + "-Djavax.net.ssl.trustStorePassword=PASSWORD'"), e.getMessage());
            assertTrue(served.isEmpty(), "nothing was served over the refused connection");
        } finally {
            server.stop(0);
        }
    }

    @Test
    void aClosedPortIsARemoteError() throws Exception {
        int port;
        try (var socket = new java.net.ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = socket.getLocalPort();
        }
        environment.put("ARM_CLOUD_METADATA_URL", "http://127.0.0.1:" + port + "/metadata/endpoints");
        GantryException e = assertThrows(GantryException.class,
                () -> new CloudChoice(environment::get, HttpClient::newHttpClient).resolve());
        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertTrue(e.getMessage().startsWith("ARM_CLOUD_METADATA_URL: could not read the cloud metadata at "
                + "http://127.0.0.1:" + port + "/metadata/endpoints: ")
                && e.getMessage().endsWith("; check the address and that this machine reaches it"), e.getMessage());
    }

    /** A choice whose HTTP client must not be asked for. */
    private CloudChoice noFetching() {
        return new CloudChoice(environment::get, () -> {
            throw new AssertionError("no request was to be made");
        });
    }

    /** A choice whose HTTP client trusts the local fakes' certificate. */
    private CloudChoice trusting() {
        return new CloudChoice(environment::get,
                () -> HttpClient.newBuilder().sslContext(LocalHttps.trustingContext()).build());
    }

    private HttpHandler answering(int status, String body) {
        return exchange -> {
            served.add(exchange.getRequestMethod() + " " + exchange.getRequestURI() + " "
                    + exchange.getRequestHeaders().getFirst("Accept"));
            reply(exchange, status, body);
        };
    }

    private static void reply(HttpExchange exchange, int status, String body) throws IOException {
        byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
        exchange.getResponseHeaders().set("Content-Type", "application/json; charset=utf-8");
        exchange.sendResponseHeaders(status, bytes.length);
        try (OutputStream out = exchange.getResponseBody()) {
            out.write(bytes);
        }
    }

    /** An Azure Stack Hub cloud in the 2019-05-01 shape, fields Gantry does not read included. */
    private static ObjectNode stackCloud() {
        ObjectNode cloud = JSON.createObjectNode();
        cloud.put("portal", "https://portal.local.azurestack.external/");
        ObjectNode authentication = cloud.putObject("authentication");
        authentication.put("loginEndpoint", "https://login.microsoftonline.com/");
        authentication.putArray("audiences")
                .add("https://management.contoso.onmicrosoft.com/a1b2c3d4-0000-4000-8000-000000000001");
        authentication.put("tenant", "common").put("identityProvider", "AAD");
        cloud.put("name", "AzureStack");
        cloud.putObject("suffixes").put("storage", "local.azurestack.external")
                .put("keyVaultDns", "vault.local.azurestack.external");
        cloud.put("batch", "https://batch.local.azurestack.external/");
        cloud.put("resourceManager", "https://management.local.azurestack.external/");
        cloud.put("gallery", "https://providers.local.azurestack.external:30016/");
        return cloud;
    }

    /** The China entry as Resource Manager writes it: no trailing slashes. */
    private static ObjectNode chinaCloudAsArmWritesIt() {
        ObjectNode cloud = JSON.createObjectNode();
        ObjectNode authentication = cloud.putObject("authentication");
        authentication.put("loginEndpoint", "https://login.chinacloudapi.cn");
        authentication.putArray("audiences").add("https://management.core.chinacloudapi.cn")
                .add("https://management.chinacloudapi.cn");
        cloud.put("name", "AzureChinaCloud");
        cloud.put("batch", "https://batch.chinacloudapi.cn");
        cloud.put("resourceManager", "https://management.chinacloudapi.cn");
        return cloud;
    }
}
