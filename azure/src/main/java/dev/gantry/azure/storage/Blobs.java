package dev.gantry.azure.storage;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.http.HttpHeader;
import com.azure.core.http.HttpMethod;
import com.azure.core.http.HttpPipeline;
import com.azure.core.http.HttpPipelineBuilder;
import com.azure.core.http.HttpRequest;
import com.azure.core.http.HttpResponse;
import com.azure.core.http.policy.BearerTokenAuthenticationPolicy;
import com.azure.core.util.Context;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.cloud.AzureSignIn;
import dev.gantry.http.HttpAnswer;
import dev.gantry.http.HttpRetry;
import dev.gantry.http.RetryOutcome;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.function.Supplier;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Put, delete and list the blobs of one container with Gantry's Microsoft Entra ID credential (a bearer token for
 * {@link #STORAGE_SCOPE}), through the Blob service's REST API on azure-core's HTTP pipeline: no storage SDK, three
 * calls. JDK-typed in and out. Used for the secrets of Batch tasks: each value is written from memory to one blob,
 * which the node agent downloads with the pool's identity, and deleted when the task ends.
 *
 * <p>Requests are retried through gantry-http's {@link HttpRetry} (429, 500, 503 and dropped connections; put and
 * delete are idempotent). The identity needs a data role on the container: Storage Blob Data Contributor.
 */
public final class Blobs {
    /** The scope of a Storage token (one slash: Storage's resource id has none at its end). */
    public static final String STORAGE_SCOPE = "https://storage.azure.com/.default";
    /** The Blob service version every request asks for ({@code x-ms-version}). */
    public static final String API_VERSION = "2023-11-03";
    private static final String ROLE = "Storage Blob Data Contributor on the container (or its storage account)";
    private static final DateTimeFormatter RFC_1123 = DateTimeFormatter.RFC_1123_DATE_TIME;
    private static final Pattern CODE = Pattern.compile("<Code>([^<]*)</Code>");
    private static final Pattern MESSAGE = Pattern.compile("<Message>([^<]*)</Message>");

    private final Supplier<TokenCredential> credentials;
    private final HttpClient httpClient;
    private final HttpRetry retry;
    private volatile HttpPipeline pipeline;

    /** The {@code DefaultAzureCredential} chain, made on the first request only; the SDK's default HTTP client. */
    public Blobs() {
        this(AzureSignIn::defaultCredential, null);
    }

    /**
     * A credential and HTTP client of the caller's choosing (a test's fake issuer and an HTTP client trusting the
     * local fakes' certificate); {@code httpClient} null for the SDK's default.
     */
    public Blobs(Supplier<TokenCredential> credentials, HttpClient httpClient) {
        this(credentials, httpClient, HttpRetry.builder().attempts(3).retryOn(Set.of(429, 500, 503))
                .retryIoFailures(true).longestWait(Duration.ofSeconds(30)).build());
    }

    Blobs(Supplier<TokenCredential> credentials, HttpClient httpClient, HttpRetry retry) {
        this.credentials = Objects.requireNonNull(credentials, "credentials");
        this.httpClient = httpClient;
        this.retry = Objects.requireNonNull(retry, "retry");
    }

    /** The blob's URL: the container's, then the name with each path segment encoded. */
    public static String blobUrl(String containerUrl, String name) {
        String container = checkedContainerUrl(containerUrl);
        if (name == null || name.isEmpty() || name.startsWith("/") || name.endsWith("/")) {
            throw new IllegalArgumentException("blob name '" + name + "' must be non-empty and neither start nor "
                    + "end with '/'");
        }
        StringBuilder url = new StringBuilder(container);
        for (String segment : name.split("/", -1)) {
            url.append('/').append(URLEncoder.encode(segment, StandardCharsets.UTF_8).replace("+", "%20"));
        }
        return url.toString();
    }

    /**
     * Writes {@code content} to the block blob {@code name}, replacing any blob of that name (a resubmit writes the
     * same value again); returns its URL.
     */
    public String put(String containerUrl, String name, byte[] content) {
        String url = blobUrl(containerUrl, name);
        HttpRequest request = request(HttpMethod.PUT, url)
                .setHeader("x-ms-blob-type", "BlockBlob")
                .setHeader("Content-Type", "application/octet-stream")
                .setHeader("Content-Length", Integer.toString(content.length))
                .setBody(content);
        HttpAnswered answered = send(request, "writing blob " + name + " to " + containerUrl);
        if (answered.status() != 201) {
            throw failure(answered, "writing blob " + name + " to " + containerUrl);
        }
        return url;
    }

    /** Deletes the blob; false when there was none (already deleted: nothing to do). */
    public boolean delete(String containerUrl, String name) {
        String what = "deleting blob " + name + " from " + containerUrl;
        HttpAnswered answered = send(request(HttpMethod.DELETE, blobUrl(containerUrl, name)), what);
        if (answered.status() == 202) {
            return true;
        }
        if (answered.status() == 404 && "BlobNotFound".equals(answered.errorCode())) {
            return false;
        }
        throw failure(answered, what);
    }

    /** Every blob whose name starts with {@code prefix}, following the listing's markers to the end. */
    public List<StoredBlob> list(String containerUrl, String prefix) {
        String container = checkedContainerUrl(containerUrl);
        String what = "listing blobs under '" + prefix + "' in " + containerUrl;
        List<StoredBlob> blobs = new ArrayList<>();
        String marker = "";
        do {
            String url = container + "?restype=container&comp=list&prefix=" + encode(prefix)
                    + (marker.isEmpty() ? "" : "&marker=" + encode(marker));
            HttpAnswered answered = send(request(HttpMethod.GET, url), what);
            if (answered.status() != 200) {
                throw failure(answered, what);
            }
            BlobListing page = BlobListing.parse(answered.body(), what);
            blobs.addAll(page.blobs());
            marker = page.nextMarker();
        } while (!marker.isEmpty());
        return blobs;
    }

    private HttpRequest request(HttpMethod method, String url) {
        return new HttpRequest(method, url)
                .setHeader("x-ms-version", API_VERSION)
                .setHeader("x-ms-date", RFC_1123.format(ZonedDateTime.now(ZoneOffset.UTC)));
    }

    private HttpAnswered send(HttpRequest request, String what) {
        RetryOutcome<HttpAnswered> outcome;
        try {
            outcome = retry.call(() -> attempt(request), HttpAnswered::answer, HttpRetry.Listener.NONE);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "Azure Storage could not be reached while " + what
                    + ": " + e.getMessage() + ". Check the network and the container URL.", e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while " + what, e);
        }
        return outcome.response();
    }

    private HttpAnswered attempt(HttpRequest request) throws IOException {
        try (HttpResponse response = pipeline().sendSync(request.copy(), Context.NONE)) {
            Map<String, List<String>> headers = new LinkedHashMap<>();
            for (HttpHeader header : response.getHeaders()) {
                headers.put(header.getName(), header.getValuesList());
            }
            byte[] body = response.getBodyAsBinaryData() == null ? new byte[0]
                    : response.getBodyAsBinaryData().toBytes();
            return new HttpAnswered(response.getStatusCode(), headers, body);
        } catch (UncheckedIOException e) {
            throw e.getCause();
        }
    }

    private HttpPipeline pipeline() {
        HttpPipeline made = pipeline;
        if (made == null) {
            synchronized (this) {
                if (pipeline == null) {
                    HttpPipelineBuilder builder = new HttpPipelineBuilder()
                            .policies(new BearerTokenAuthenticationPolicy(credentials.get(), STORAGE_SCOPE));
                    if (httpClient != null) {
                        builder.httpClient(httpClient);
                    }
                    pipeline = builder.build();
                }
                made = pipeline;
            }
        }
        return made;
    }

    private static GantryException failure(HttpAnswered answered, String what) {
        String code = answered.errorCode();
        String message = answered.errorMessage();
        int status = answered.status();
        if (status == 401 || status == 403) {
            return new GantryException(ErrorCode.AUTH_FAILED, "Azure Storage refused Gantry's identity while " + what
                    + " (" + status + " " + code + "): " + message + ". Grant the identity Gantry signs in with "
                    + ROLE + ".");
        }
        if (code.equals("ContainerNotFound")) {
            return new GantryException(ErrorCode.REMOTE_ERROR, "the container does not exist while " + what
                    + ": create it (az storage container create) or fix secrets.containerUrl.");
        }
        return new GantryException(ErrorCode.REMOTE_ERROR, "Azure Storage answered " + status + " " + code
                + " while " + what + ": " + message + " (x-ms-request-id " + answered.header("x-ms-request-id")
                .orElse("none") + ")");
    }

    /** A container URL: https with a host and a container path, nothing else. */
    static String checkedContainerUrl(String containerUrl) {
        String fix = "give the container's URL, https://ACCOUNT.blob.core.windows.net/CONTAINER";
        if (containerUrl == null || containerUrl.isBlank()) {
            throw new IllegalArgumentException("the container URL is empty; " + fix);
        }
        String url = containerUrl.endsWith("/") ? containerUrl.substring(0, containerUrl.length() - 1) : containerUrl;
        try {
            URI uri = new URI(url);
            if (!"https".equalsIgnoreCase(uri.getScheme()) || uri.getHost() == null || uri.getRawQuery() != null
                    || uri.getRawPath() == null || uri.getRawPath().length() < 2) {
                throw new IllegalArgumentException("'" + containerUrl + "' is not an https container URL without a "
                        + "query (a SAS is never used: Gantry signs in with Entra ID); " + fix);
            }
        } catch (URISyntaxException e) {
            throw new IllegalArgumentException("'" + containerUrl + "' is not a URL (" + e.getReason() + "); " + fix);
        }
        return url;
    }

    private static String encode(String value) {
        return URLEncoder.encode(value, StandardCharsets.UTF_8).replace("+", "%20");
    }

    /** One attempt's answer, read whole (Storage's answers here are small). */
    private record HttpAnswered(int status, Map<String, List<String>> headers, byte[] body) {
        HttpAnswer answer() {
            return HttpAnswer.of(status, headers);
        }

        Optional<String> header(String name) {
            return answer().header(name);
        }

        String errorCode() {
            return header("x-ms-error-code").orElseGet(() -> find(CODE, "no error code"));
        }

        String errorMessage() {
            return find(MESSAGE, "no message").lines().findFirst().orElse("");
        }

        private String find(Pattern pattern, String otherwise) {
            Matcher matcher = pattern.matcher(new String(body, StandardCharsets.UTF_8));
            return matcher.find() ? matcher.group(1) : otherwise;
        }
    }
}
