package dev.gantry.azure.cloud;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;
import java.util.function.Supplier;
import javax.net.ssl.SSLException;

/**
 * Which Azure cloud Gantry reaches, chosen by the environment as the Azure CLI and azure-ai-ml choose it:
 * <ol>
 *   <li>{@value #ARM_CLOUD_METADATA_URL} set: the cloud in Resource Manager's metadata document at that URL (the one
 *   named {@value #AZURE_CLOUD} when that is set too, else the first; see {@link CloudMetadata}). Fetched with the
 *   JDK's HTTP client and the JVM's trust store, so a private CA is trusted through
 *   {@code -Djavax.net.ssl.trustStore}; https only, or http to a loopback address for a local test cloud.</li>
 *   <li>else {@value #AZURE_CLOUD} set: one of the presets ({@link AzureCloud#preset}).</li>
 *   <li>else the public cloud, without a request.</li>
 * </ol>
 * {@link #current()} decides once per process, on the first Azure call: a program that never reaches Azure reads no
 * variable and fetches nothing. A failed choice is not kept: the next call tries again (and fails the same way for a
 * bad variable).
 */
public final class CloudChoice {
    /** Resource Manager's metadata endpoint of a custom cloud, e.g. {@code https://HOST/metadata/endpoints?...}. */
    public static final String ARM_CLOUD_METADATA_URL = "ARM_CLOUD_METADATA_URL";
    /** A preset's name, or the name of a cloud in the metadata document. */
    public static final String AZURE_CLOUD = "AZURE_CLOUD";
    /** How long the metadata endpoint has to accept the connection, and then to answer. */
    public static final Duration TIMEOUT = Duration.ofSeconds(10);

    private static final Object LOCK = new Object();
    private static volatile AzureCloud current;

    private final Function<String, String> environment;
    private final Supplier<HttpClient> http;

    /**
     * @param environment the variables' values (null when unset), e.g. {@code System::getenv}
     * @param http the client that fetches the metadata document, asked only when {@value #ARM_CLOUD_METADATA_URL}
     *     is set
     */
    public CloudChoice(Function<String, String> environment, Supplier<HttpClient> http) {
        this.environment = Objects.requireNonNull(environment, "environment");
        this.http = Objects.requireNonNull(http, "http");
    }

    /** This process's environment, the JVM's trust store and proxy settings. */
    public static CloudChoice fromSystem() {
        return new CloudChoice(System::getenv, () -> HttpClient.newBuilder().connectTimeout(TIMEOUT)
                .followRedirects(HttpClient.Redirect.NORMAL).build());
    }

    /** This process's cloud, chosen on the first call ({@link #fromSystem()}) and kept. */
    public static AzureCloud current() {
        AzureCloud chosen = current;
        if (chosen == null) {
            synchronized (LOCK) {
                if (current == null) {
                    current = fromSystem().resolve();
                }
                chosen = current;
            }
        }
        return chosen;
    }

    /** The cloud the variables choose; USAGE for a bad value, REMOTE_ERROR or AUTH_FAILED for a failed fetch. */
    public AzureCloud resolve() {
        Optional<String> name = variable(AZURE_CLOUD);
        Optional<String> metadataUrl = variable(ARM_CLOUD_METADATA_URL);
        if (metadataUrl.isPresent()) {
            URI source = SecureUrl.parse(metadataUrl.get()).orElseThrow(() -> new GantryException(ErrorCode.USAGE,
                    ARM_CLOUD_METADATA_URL + ": '" + metadataUrl.get() + "' is not an https URL; set it to your "
                            + "cloud's metadata endpoint, e.g. https://management.azure.com/metadata/endpoints"
                            + "?api-version=2019-05-01 (plain http only to a loopback address such as "
                            + "http://127.0.0.1:PORT/, for a local test cloud)"));
            return CloudMetadata.select(fetch(source), source, name);
        }
        return name.map(given -> AzureCloud.preset(given).orElseThrow(() -> new GantryException(ErrorCode.USAGE,
                AZURE_CLOUD + ": '" + given + "' is not a cloud Gantry knows; one of "
                        + String.join(", ", AzureCloud.presetNames()) + ", or set " + ARM_CLOUD_METADATA_URL
                        + " to your cloud's metadata endpoint"))).orElse(AzureCloud.PUBLIC);
    }

    private Optional<String> variable(String name) {
        return Optional.ofNullable(environment.apply(name)).map(String::strip).filter(value -> !value.isEmpty());
    }

    private String fetch(URI source) {
        HttpRequest request = HttpRequest.newBuilder(source).timeout(TIMEOUT).header("Accept", "application/json")
                .GET().build();
        HttpResponse<String> response;
        try {
            response = http.get().send(request, HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (HttpTimeoutException e) {
            throw failed(ErrorCode.REMOTE_ERROR, source, "no answer within " + TIMEOUT.toSeconds() + " s",
                    "check that this machine reaches it");
        } catch (IOException e) {
            if (untrusted(e)) {
                throw failed(ErrorCode.AUTH_FAILED, source, "its TLS certificate is not trusted (" + e.getMessage()
                        + ")", "when a private CA signed it, give Java a trust store holding that CA: "
                        + "GANTRY_JAVA_OPTS='-Djavax.net.ssl.trustStore=FILE -Djavax.net.ssl.trustStorePassword="
                        + "PASSWORD'");
            }
            throw failed(ErrorCode.REMOTE_ERROR, source, e.getMessage() == null ? e.getClass().getSimpleName()
                    : e.getMessage(), "check the address and that this machine reaches it");
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw failed(ErrorCode.REMOTE_ERROR, source, "interrupted", "try again");
        }
        if (response.statusCode() != 200) {
            throw failed(ErrorCode.REMOTE_ERROR, source, "it answered HTTP " + response.statusCode(),
                    "check that it is Resource Manager's metadata endpoint (.../metadata/endpoints"
                            + "?api-version=2019-05-01)");
        }
        return response.body();
    }

    private static boolean untrusted(Throwable e) {
        for (Throwable cause = e; cause != null; cause = cause.getCause()) {
            if (cause instanceof SSLException) {
                return true;
            }
        }
        return false;
    }

    private static GantryException failed(ErrorCode code, URI source, String reason, String fix) {
        return new GantryException(code, ARM_CLOUD_METADATA_URL + ": could not read the cloud metadata at " + source
                + ": " + reason + "; " + fix);
    }
}
