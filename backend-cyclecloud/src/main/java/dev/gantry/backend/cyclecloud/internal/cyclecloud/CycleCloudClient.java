package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.http.HttpRetry;
import dev.gantry.http.Jitter;
import dev.gantry.http.RetryOutcome;
import dev.gantry.http.Sleeper;
import java.io.IOException;
import java.net.ConnectException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpConnectTimeoutException;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.net.http.HttpTimeoutException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Base64;
import java.util.Objects;
import javax.net.ssl.SSLException;

/**
 * The CycleCloud REST API of one server, as far as the backend reads it: {@code GET /clusters/{cluster}/status},
 * with HTTP basic authentication, over HTTPS. A thin adapter: it fetches, {@link ClusterStatusParser} reads.
 *
 * <p>The password is resolved from its reference for each call and travels only in the {@code Authorization}
 * header: it is never logged, never part of a message (a response body that repeats it is redacted), and never held
 * by this object. Throttling (429) and unavailability (503) are retried twice at most through {@link HttpRetry},
 * waiting as {@code Retry-After} says up to {@link #LONGEST_WAIT}; every other failure is reported at once.
 */
public final class CycleCloudClient {
    /** Attempts per call: the first and two retries. */
    static final int ATTEMPTS = 3;
    /** The longest wait before a retry; a server asking for longer is not retried. */
    static final Duration LONGEST_WAIT = Duration.ofSeconds(30);

    private final CycleCloudEndpoint endpoint;
    private final SecretResolver secrets;
    private final System.Logger logger;
    private final HttpRetry retry;
    private final HttpClient http;

    /**
     * @param endpoint where CycleCloud is and how to sign in
     * @param secrets resolves the password's reference, at each call
     * @param logger where requests are logged (at DEBUG) and a disabled certificate check is warned about
     */
    public CycleCloudClient(CycleCloudEndpoint endpoint, SecretResolver secrets, System.Logger logger) {
        this(endpoint, secrets, logger, policy().build());
    }

    /** A client whose waits are exactly as computed (no jitter), for tests that record them. */
    CycleCloudClient(CycleCloudEndpoint endpoint, SecretResolver secrets, System.Logger logger, Sleeper sleeper) {
        this(endpoint, secrets, logger, policy().sleeper(sleeper).jitter(Jitter.NONE).build());
    }

    private CycleCloudClient(CycleCloudEndpoint endpoint, SecretResolver secrets, System.Logger logger,
                             HttpRetry retry) {
        this.endpoint = Objects.requireNonNull(endpoint, "endpoint");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.logger = Objects.requireNonNull(logger, "logger");
        this.retry = retry;
        this.http = HttpClient.newBuilder()
                .sslContext(CycleCloudTrust.sslContext(endpoint, logger))
                .connectTimeout(endpoint.timeout())
                // A redirect would carry the request, and perhaps the credentials, somewhere url does not name.
                .followRedirects(HttpClient.Redirect.NEVER)
                .build();
    }

    /**
     * A connection failure is reported at once (CycleCloud unreachable is said while the user waits, not after
     * retries), and a server that asks for a longer wait than {@link #LONGEST_WAIT} is not waited for.
     */
    private static HttpRetry.Builder policy() {
        return HttpRetry.builder().attempts(ATTEMPTS).longestWait(LONGEST_WAIT)
                .whenAskedToWaitLonger(HttpRetry.LongerWait.GIVE_UP);
    }

    /** How many requests this client has sent, retries included. */
    public long calls() {
        return retry.calls();
    }

    /** The layout of the endpoint's cluster. */
    public ClusterLayout clusterLayout() {
        return clusterLayout(endpoint.cluster());
    }

    /** The layout of a cluster on the same CycleCloud server, read from {@code GET /clusters/{cluster}/status}. */
    public ClusterLayout clusterLayout(String clusterName) {
        Objects.requireNonNull(clusterName, "clusterName");
        return ClusterStatusParser.parse(clusterName, status(clusterName));
    }

    /** The status body of the cluster, as CycleCloud sent it. */
    String status(String clusterName) {
        // Without nodes=true: the layout reads no node records, which would make a large cluster's answer large.
        URI uri = endpoint.statusUri(clusterName, false);
        String what = "GET " + uri.getRawPath();
        String password = secrets.resolve(endpoint.password()).reveal();
        String token = Base64.getEncoder().encodeToString((endpoint.user() + ":" + password)
                .getBytes(StandardCharsets.UTF_8));
        Redaction redaction = new Redaction(password, token);
        HttpRequest request = HttpRequest.newBuilder(uri)
                .timeout(endpoint.timeout())
                .header("Accept", "application/json")
                .header("Authorization", "Basic " + token)
                .GET()
                .build();
        RetryOutcome<HttpResponse<String>> outcome = send(request, what, redaction);
        HttpResponse<String> response = outcome.response();
        int status = outcome.status();
        if (status == 200) {
            return response.body();
        }
        if (outcome.ending() == RetryOutcome.Ending.WAIT_TOO_LONG) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "CycleCloud at " + endpoint.base()
                    + " answered HTTP " + status + " for " + what + " and asks to retry after "
                    + seconds(outcome.askedWait().orElseThrow()) + ", longer than this client waits ("
                    + seconds(LONGEST_WAIT) + "); try again later");
        }
        throw failure(status, outcome.attempts(), clusterName, what, response, redaction);
    }

    private RetryOutcome<HttpResponse<String>> send(HttpRequest request, String what, Redaction redaction) {
        HttpRetry.Listener log = new HttpRetry.Listener() {
            @Override
            public void attempting(int attempt) {
                logger.log(System.Logger.Level.DEBUG, "CycleCloud: " + what + " at " + endpoint.base() + " (attempt "
                        + attempt + ")");
            }

            @Override
            public void retrying(int attempt, String why, Duration wait) {
                logger.log(System.Logger.Level.INFO, "CycleCloud at " + endpoint.base() + " answered " + why
                        + " for " + what + "; retrying in " + seconds(wait));
            }
        };
        try {
            return retry.send(http, request, HttpResponse.BodyHandlers.ofString(), log);
        } catch (IOException e) {
            throw unreachable(e, what, redaction);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted during " + what + " at CycleCloud at "
                    + endpoint.base(), e);
        }
    }

    /** Why no answer came, by the kind of failure (the JDK may wrap the telling exception in another). */
    private GantryException unreachable(IOException e, String what, Redaction redaction) {
        String where = "CycleCloud at " + endpoint.base();
        if (e instanceof HttpConnectTimeoutException) {
            return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, where + " did not accept a connection within "
                    + seconds(endpoint.timeout()) + " (timeout); check url's host and port, and that a firewall or "
                    + "network security group lets this machine reach it", e);
        }
        if (e instanceof HttpTimeoutException) {
            return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, where + " did not answer " + what + " within "
                    + seconds(endpoint.timeout()) + " (timeout); CycleCloud may be overloaded or starting, so try "
                    + "again, or raise timeout", e);
        }
        if (causedBy(e, SSLException.class)) {
            return new GantryException(ErrorCode.CONFIG_INVALID, where + " presented a certificate this client does "
                    + "not trust for that address (" + redaction.apply(reason(e)) + "); for CycleCloud's self-signed "
                    + "certificate set caFile to it in PEM (openssl s_client -connect HOST:443 </dev/null | openssl "
                    + "x509 > cyclecloud.pem), and use in url a host name the certificate names; if the certificate "
                    + "changed unexpectedly, find out why before you trust it", e);
        }
        if (causedBy(e, ConnectException.class)) {
            return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot connect to " + where + " ("
                    + redaction.apply(reason(e)) + "); check url's host and port, that CycleCloud is running on its "
                    + "VM (systemctl status cycle_server), and that a firewall or network security group lets this "
                    + "machine reach it", e);
        }
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, where + " failed during " + what + " ("
                + redaction.apply(reason(e)) + "); check that url is CycleCloud's HTTPS address, and try again", e);
    }

    private static boolean causedBy(Throwable e, Class<? extends Throwable> kind) {
        for (Throwable t = e; t != null; t = t.getCause() == t ? null : t.getCause()) {
            if (kind.isInstance(t)) {
                return true;
            }
        }
        return false;
    }

    private GantryException failure(int status, int attempt, String clusterName, String what,
                                    HttpResponse<String> response, Redaction redaction) {
        String where = "CycleCloud at " + endpoint.base();
        String answered = where + " answered HTTP " + status + " for " + what;
        // The reference lists only 200 for this operation. 404 ("Not found") is what it lists for the other
        // /clusters/{cluster} operations, read here as an unknown cluster; 401 and 403 are basic authentication's own
        // answers (RFC 9110): wrong credentials, and a user without access.
        return switch (status) {
            case 401 -> new GantryException(ErrorCode.AUTH_FAILED, answered + ": it refused user '" + endpoint.user()
                    + "' with the password from " + endpoint.password() + "; check the user name and that password "
                    + "by signing in to CycleCloud's web page, then fix user or the secret");
            case 403 -> new GantryException(ErrorCode.AUTH_FAILED, answered + ": user '" + endpoint.user() + "' may "
                    + "not read cluster '" + clusterName + "'; give the user access to the cluster in CycleCloud, or"
                    + " sign in as a user who has it");
            case 404 -> new GantryException(ErrorCode.CONFIG_INVALID, where + " has no cluster named '"
                    + clusterName + "' (HTTP 404 for " + what + "); set cluster to the name CycleCloud's web page "
                    + "shows for it, and check that url is CycleCloud's address");
            case 429, 503 -> new GantryException(ErrorCode.BACKEND_UNAVAILABLE, answered + " " + attempt + " times ("
                    + (status == 429 ? "throttled" : "unavailable") + "); try again later");
            default -> new GantryException(ErrorCode.REMOTE_ERROR, answered + body(response, redaction)
                    + (status >= 500 ? "; see CycleCloud's log (/opt/cycle_server/logs/cycle_server.log on its VM)"
                    : status >= 300 && status < 400 ? "; url must be CycleCloud's own address"
                    + response.headers().firstValue("Location").map(l -> " (it redirects to "
                    + redaction.apply(l) + ")").orElse("") : ""));
        };
    }

    private static String body(HttpResponse<String> response, Redaction redaction) {
        String text = response.body() == null ? "" : response.body().strip().replaceAll("\\s+", " ");
        if (text.isEmpty()) {
            return "";
        }
        text = redaction.apply(text);
        return ": " + (text.length() > 300 ? text.substring(0, 300) + "..." : text);
    }

    /** The exception's kind and message, and its cause's: connection failures often carry no message of their own. */
    private static String reason(Throwable e) {
        StringBuilder text = new StringBuilder(e.getClass().getSimpleName());
        if (e.getMessage() != null) {
            text.append(": ").append(e.getMessage());
        } else if (e instanceof ConnectException) {
            text.append(": the connection was refused or the host cannot be reached");
        }
        Throwable cause = e.getCause();
        if (cause != null && cause != e && cause.getMessage() != null && !cause.getMessage().equals(e.getMessage())) {
            text.append("; ").append(cause.getMessage());
        }
        return text.toString();
    }

    private static String seconds(Duration duration) {
        return duration.toMillis() % 1000 == 0 ? duration.toSeconds() + "s" : duration.toMillis() + "ms";
    }

    /** The endpoint, never the password. */
    @Override
    public String toString() {
        return "CycleCloudClient[" + endpoint.base() + ", cluster " + endpoint.cluster() + ", user " + endpoint.user()
                + "]";
    }

    /** Removes the password and the basic-authentication token from text that came from elsewhere. */
    private record Redaction(String password, String token) {
        String apply(String text) {
            String clean = text.replace(token, "******");
            return password.isEmpty() ? clean : clean.replace(password, "******");
        }

        @Override
        public String toString() {
            return "Redaction[******]";
        }
    }
}
