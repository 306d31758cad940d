package dev.gantry.backend.batch.fake;

import java.nio.charset.StandardCharsets;
import java.security.GeneralSecurityException;
import java.security.MessageDigest;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.TreeMap;
import javax.crypto.Mac;
import javax.crypto.spec.SecretKeySpec;

/**
 * Batch's shared-key scheme ("Authenticate requests to the Azure Batch service"), implemented from its description:
 * {@code Authorization: SharedKey ACCOUNT:SIGNATURE}, the signature being the Base64 HMAC-SHA256, under the
 * Base64-decoded account key, of the UTF-8 string
 * <pre>
 * VERB \n Content-Encoding \n Content-Language \n Content-Length \n Content-MD5 \n Content-Type \n Date \n
 * If-Modified-Since \n If-Match \n If-None-Match \n If-Unmodified-Since \n Range \n
 * CanonicalizedHeaders CanonicalizedResource
 * </pre>
 * where an absent header is empty (and so is a Content-Length of 0), CanonicalizedHeaders is every {@code ocp-*}
 * header, name lower-cased, as {@code name:value\n}, sorted by name, and CanonicalizedResource is
 * {@code /ACCOUNT/PATH} followed, for each query parameter sorted by its lower-cased name, by
 * {@code \nname:value} with the value decoded.
 */
final class SharedKey {
    private static final List<String> STANDARD_HEADERS = List.of("content-encoding", "content-language",
            "content-length", "content-md5", "content-type", "date", "if-modified-since", "if-match",
            "if-none-match", "if-unmodified-since", "range");

    private final String account;
    private final byte[] key;

    SharedKey(String account, byte[] key) {
        this.account = account;
        this.key = key.clone();
    }

    /** Whether the header is {@code SharedKey ACCOUNT:SIGNATURE} with this account and the right signature. */
    boolean verifies(FakeRequest request, String authorization) {
        String prefix = "SharedKey " + account + ":";
        if (authorization == null || !authorization.startsWith(prefix)) {
            return false;
        }
        byte[] sent = authorization.substring(prefix.length()).getBytes(StandardCharsets.US_ASCII);
        byte[] expected = sign(stringToSign(request)).getBytes(StandardCharsets.US_ASCII);
        // A zero Content-Length may be signed as empty (the documented form) or as "0": the SDK's signer writes "0"
        // for a body of no bytes (every DELETE it sends), and Batch accepts it.
        byte[] zeroLength = "0".equals(request.header("content-length"))
                ? sign(stringToSign(request, "0")).getBytes(StandardCharsets.US_ASCII) : expected;
        return MessageDigest.isEqual(sent, expected) || MessageDigest.isEqual(sent, zeroLength);
    }

    String stringToSign(FakeRequest request) {
        return stringToSign(request, "");
    }

    private String stringToSign(FakeRequest request, String zeroLength) {
        StringBuilder text = new StringBuilder(request.method()).append('\n');
        for (String header : STANDARD_HEADERS) {
            String value = request.header(header);
            if (header.equals("content-length") && "0".equals(value)) {
                value = zeroLength;
            }
            text.append(value == null ? "" : value).append('\n');
        }
        Map<String, String> ocp = new TreeMap<>();
        request.headers().forEach((name, values) -> {
            if (name.startsWith("ocp-")) {
                ocp.put(name, String.join(",", values));
            }
        });
        ocp.forEach((name, value) -> text.append(name).append(':').append(value).append('\n'));
        text.append('/').append(account).append(request.rawPath());
        Map<String, String> query = new TreeMap<>();
        request.query().forEach((name, value) -> query.put(name.toLowerCase(Locale.ROOT), value));
        query.forEach((name, value) -> text.append('\n').append(name).append(':').append(value));
        return text.toString();
    }

    String sign(String stringToSign) {
        try {
            Mac mac = Mac.getInstance("HmacSHA256");
            mac.init(new SecretKeySpec(key, "HmacSHA256"));
            return Base64.getEncoder().encodeToString(mac.doFinal(stringToSign.getBytes(StandardCharsets.UTF_8)));
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("HmacSHA256 is unavailable", e);
        }
    }
}
