package dev.gantry.backend.batch.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.microsoft.azure.batch.protocol.models.PoolListOptions;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;
import org.junit.jupiter.api.Test;

/**
 * The SDK's shared-key signer, applied to Gantry's client, signs what "Authenticate requests to the Azure Batch
 * service" documents: checked by this test's own implementation of the documented string to sign over the request as
 * the server received it (the verb; Content-Encoding, Content-Language, Content-Length, Content-MD5, Content-Type,
 * Date, If-Modified-Since, If-Match, If-None-Match, If-Unmodified-Since, Range; the {@code ocp-*} headers in lower case,
 * sorted, as {@code name:value}; {@code /account/path}; then each query parameter, names in lower case, sorted,
 * decoded, as {@code name:value}), HMAC-SHA256 with the Base64-decoded key.
 */
class SharedKeySigningTest {
    /** A throwaway key: 32 bytes, Base64 as the portal shows account keys. */
    static final String KEY = Base64.getEncoder().encodeToString("gantry-test-key-0123456789abcdef".getBytes(
            StandardCharsets.US_ASCII));
    private static final String ACCOUNT = "gantrytest";

    @Test
    void aGetWithAnODataQueryIsSignedAsDocumented() throws Exception {
        LocalBatchService.Received request = sent(batch -> batch.protocol().pools().list(new PoolListOptions()
                .withFilter("startswith(id,'gantry-') and state eq 'active'").withSelect("id,state")
                .withMaxResults(1000)), "{\"value\":[]}");
        assertTrue(request.rawQuery().contains("%24filter="), request.rawQuery());
        assertSignedAsDocumented(request);
    }

    @Test
    void aPostWithABodyIsSignedAsDocumented() throws Exception {
        LocalBatchService.Received request = sent(batch -> batch.protocol().tasks().add("job-1",
                new TaskAddParameter().withId("task-1").withCommandLine("/bin/sh -c 'exit 0'")), "");
        assertEquals("POST", request.method());
        assertFalse(request.header("content-length").isEmpty());
        assertTrue(request.header("content-type").startsWith("application/json"), request.header("content-type"));
        assertSignedAsDocumented(request);
    }

    @Test
    void aDeleteIsSignedAsDocumented() throws Exception {
        assertSignedAsDocumented(sent(batch -> batch.protocol().jobs().delete("job-1"), ""));
    }

    @Test
    void aSignatureWithAnotherKeyDoesNotVerify() throws Exception {
        LocalBatchService.Received request = sent(batch -> batch.protocol().jobs().delete("job-1"), "");
        String other = Base64.getEncoder().encodeToString("another-key-another-key-another!".getBytes(
                StandardCharsets.US_ASCII));
        assertTrue(!request.header("authorization").equals("SharedKey " + ACCOUNT + ":"
                + sign(other, documentedStringToSign(request))), "the test's verifier can fail");
    }

    @Test
    void aKeyThatIsNotBase64IsRefusedWithoutRepeatingIt() {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class,
                () -> new BatchAuth.SharedKey(ACCOUNT, "not base64!"));
        assertFalse(e.getMessage().contains("not base64!"), e.getMessage());
        assertTrue(e.getMessage().contains(ACCOUNT) && e.getMessage().contains("Keys"), e.getMessage());
        assertFalse(new BatchAuth.SharedKey(ACCOUNT, KEY).toString().contains(KEY));
    }

    private interface Call {
        void on(BatchConnection batch);
    }

    private static LocalBatchService.Received sent(Call call, String answer) throws Exception {
        try (LocalBatchService service = LocalBatchService.http()) {
            service.answer((exchange, request) -> LocalBatchService.json(exchange,
                    request.method().equals("GET") ? 200 : request.method().equals("POST") ? 201 : 202, answer));
            try (BatchConnection batch = BatchConnection.open(BatchAccountUrl.of(service.url()),
                    new BatchAuth.SharedKey(ACCOUNT, KEY))) {
                call.on(batch);
            }
            return service.received().get(0);
        }
    }

    private static void assertSignedAsDocumented(LocalBatchService.Received request) throws Exception {
        String stringToSign = documentedStringToSign(request);
        assertEquals("SharedKey " + ACCOUNT + ":" + sign(KEY, stringToSign), request.header("authorization"),
                "signed over:\n" + stringToSign);
    }

    /** The documented string to sign, built from the request as received. */
    static String documentedStringToSign(LocalBatchService.Received request) {
        StringBuilder text = new StringBuilder(request.method()).append('\n');
        for (String header : List.of("Content-Encoding", "Content-Language", "Content-Length", "Content-MD5",
                "Content-Type", "Date", "If-Modified-Since", "If-Match", "If-None-Match", "If-Unmodified-Since",
                "Range")) {
            String value = request.header(header);
            text.append(value == null ? "" : value).append('\n');
        }
        Map<String, String> ocp = new TreeMap<>();
        request.headers().forEach((name, values) -> {
            if (name.startsWith("ocp-")) {
                ocp.put(name, values.get(0).strip());
            }
        });
        ocp.forEach((name, value) -> text.append(name).append(':').append(value).append('\n'));
        text.append('/').append(ACCOUNT).append(request.rawPath());
        Map<String, List<String>> query = new TreeMap<>();
        if (request.rawQuery() != null) {
            for (String pair : request.rawQuery().split("&")) {
                int equals = pair.indexOf('=');
                String name = URLDecoder.decode(pair.substring(0, equals), StandardCharsets.UTF_8)
                        .toLowerCase(Locale.ROOT);
                query.computeIfAbsent(name, n -> new ArrayList<>()).add(URLDecoder.decode(pair.substring(equals + 1),
                        StandardCharsets.UTF_8));
            }
        }
        query.forEach((name, values) -> text.append('\n').append(name).append(':').append(String.join(",",
                values.stream().sorted().toList())));
        return text.toString();
    }

    static String sign(String key, String stringToSign) throws GeneralSecurityException {
        Mac mac = Mac.getInstance("HmacSHA256");
        mac.init(new SecretKeySpec(Base64.getDecoder().decode(key), "HmacSHA256"));
        return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
    }
}
