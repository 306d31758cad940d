package dev.gantry.backend.batch.internal.rest;

import com.microsoft.azure.batch.BatchClient;
import com.microsoft.azure.batch.auth.BatchSharedKeyCredentials;
import com.microsoft.azure.batch.protocol.BatchServiceClient;
import com.microsoft.azure.serializer.AzureJacksonAdapter;
import com.microsoft.rest.RestClient;
import com.microsoft.rest.credentials.ServiceClientCredentials;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import javax.net.ssl.SSLSocketFactory;
import javax.net.ssl.X509TrustManager;
import okhttp3.OkHttpClient;
import retrofit2.Retrofit;

/**
 * One Batch account reached through the SDK's protocol layer ({@link #protocol()}), on Gantry's own
 * {@link RestClient}: one client and one retry policy, Gantry's. The client
 * <ul>
 *   <li>never retries: neither client-runtime's retry handler ({@link NoRetries}) nor OkHttp's silent retry of a
 *       failed connection, so that a request Batch applied before the connection dropped is sent again only by
 *       Gantry's policy, which knows the answer to expect ({@code TaskExists});</li>
 *   <li>counts every HTTP attempt in a network interceptor ({@link #remoteCalls()}, for {@code Backend.remoteCalls()});
 *   </li>
 *   <li>sends a fresh {@code client-request-id} with each request ({@link ClientRequestIds});</li>
 *   <li>throws {@code BatchErrorException} for a GET answered 404, as {@code BatchClient}'s own client does
 *       ({@link ThrowOnGet404});</li>
 *   <li>signs with the account's shared key or a Microsoft Entra ID token ({@link BatchAuth});</li>
 *   <li>speaks https, or http to a loopback host ({@link BatchAccountUrl}).</li>
 * </ul>
 * Only the protocol layer is used: {@code BatchClient}'s {@code *Operations} wrappers hang in
 * {@code TaskOperations.createTasks} on Java 17 and need {@code --add-opens} (see the module's pom).
 */
public final class BatchConnection implements AutoCloseable {
    /** How long to wait for a connection to the account: a reachable Batch endpoint answers in well under this. */
    public static final Duration DEFAULT_CONNECT_TIMEOUT = Duration.ofSeconds(10);
    /**
     * How long to wait for a response: Batch answers an {@code addtaskcollection} of 100 tasks in seconds; past this,
     * the call fails and Gantry's policy decides whether to send it again.
     */
    public static final Duration DEFAULT_READ_TIMEOUT = Duration.ofSeconds(60);

    private final BatchAccountUrl account;
    private final RestClient rest;
    private final BatchServiceClient protocol;
    private final AtomicLong attempts;

    private BatchConnection(BatchAccountUrl account, RestClient rest, AtomicLong attempts) {
        this.account = account;
        this.rest = rest;
        this.attempts = attempts;
        this.protocol = BatchClient.open(rest, account.baseUrl()).protocolLayer();
    }

    /** A connection to {@code account} authenticated by {@code auth}, with the default timeouts. */
    public static BatchConnection open(BatchAccountUrl account, BatchAuth auth) {
        return to(account, auth).open();
    }

    public static Builder to(BatchAccountUrl account, BatchAuth auth) {
        return new Builder(account, auth);
    }

    /** The SDK's protocol-layer client: {@code pools()}, {@code jobs()}, {@code tasks()}, {@code files()}, ... */
    public BatchServiceClient protocol() {
        return protocol;
    }

    public BatchAccountUrl account() {
        return account;
    }

    /** Every HTTP request sent so far, each attempt counted (Gantry's retries included), whatever its answer. */
    public long remoteCalls() {
        return attempts.get();
    }

    /** Ends the client's connections and its dispatcher's threads; requests after this fail. */
    @Override
    public void close() {
        rest.close();
    }

    /** How a connection is made: its account and authentication, timeouts, and (in tests) the certificate to trust. */
    public static final class Builder {
        private final BatchAccountUrl account;
        private final BatchAuth auth;
        private Duration connectTimeout = DEFAULT_CONNECT_TIMEOUT;
        private Duration readTimeout = DEFAULT_READ_TIMEOUT;
        private SSLSocketFactory testSockets;
        private X509TrustManager testTrust;

        private Builder(BatchAccountUrl account, BatchAuth auth) {
            this.account = Objects.requireNonNull(account, "account");
            this.auth = Objects.requireNonNull(auth, "auth");
        }

        public Builder connectTimeout(Duration timeout) {
            this.connectTimeout = positive(timeout, "connectTimeout");
            return this;
        }

        public Builder readTimeout(Duration timeout) {
            this.readTimeout = positive(timeout, "readTimeout");
            return this;
        }

        /**
         * Trusts exactly this certificate (a local test service's) instead of the JDK's trust store. For tests only:
         * production code never calls it, so a Batch account is always verified against the system's CAs.
         */
        public Builder trustingForTests(SSLSocketFactory sockets, X509TrustManager trust) {
            this.testSockets = Objects.requireNonNull(sockets, "sockets");
            this.testTrust = Objects.requireNonNull(trust, "trust");
            return this;
        }

        public BatchConnection open() {
            AtomicLong attempts = new AtomicLong();
            OkHttpClient.Builder http = new OkHttpClient.Builder()
                    // OkHttp would otherwise send a request again after some connection failures and after a 408
                    // (measured: a 408 went out eight times with client-runtime's handler on top), unseen by Gantry.
                    .retryOnConnectionFailure(false);
            if (testSockets != null) {
                http.sslSocketFactory(testSockets, testTrust);
            }
            RestClient rest = new RestClient.Builder(http, new Retrofit.Builder())
                    .withBaseUrl(account.baseUrl())
                    .withSerializerAdapter(new AzureJacksonAdapter())
                    .withResponseBuilderFactory(new ThrowOnGet404())
                    .withCredentials(credentials())
                    .withRetryStrategy(new NoRetries())
                    .withConnectionTimeout(connectTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .withReadTimeout(readTimeout.toMillis(), TimeUnit.MILLISECONDS)
                    .withInterceptor(new ClientRequestIds())
                    .withNetworkInterceptor(chain -> {
                        attempts.incrementAndGet();
                        return chain.proceed(chain.request());
                    })
                    .build();
            return new BatchConnection(account, rest, attempts);
        }

        private ServiceClientCredentials credentials() {
            if (auth instanceof BatchAuth.SharedKey key) {
                return new BatchSharedKeyCredentials(account.baseUrl(), key.accountName(), key.key());
            }
            return new EntraCredentials((BatchAuth.Entra) auth);
        }

        private static Duration positive(Duration timeout, String name) {
            if (timeout == null || timeout.isNegative() || timeout.isZero()) {
                throw new IllegalArgumentException(name + " must be a positive duration, not " + timeout);
            }
            return timeout;
        }
    }
}
