package dev.gantry.azure.fakes;

import com.azure.core.http.HttpClient;
import com.azure.core.http.netty.NettyAsyncHttpClientBuilder;
import com.azure.core.util.Configuration;
import com.sun.net.httpserver.HttpHandler;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import io.netty.handler.ssl.SslContext;
import io.netty.handler.ssl.SslContextBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URLDecoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.Executor;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509TrustManager;

/**
 * HTTPS for the local fakes of Azure services. The Azure SDK sends bearer tokens over HTTPS only, so a fake must
 * serve TLS for the SDK's real pipeline (authentication policies, retries, pollers) to run against it. Every fake
 * serves the throwaway certificate in {@code tls/local-fake-tls.p12} on the loopback interface, and
 * {@link #trustingHttpClient()} gives the SDK an HTTP client that trusts exactly that certificate, nothing more.
 */
public final class LocalHttps {
    private static final String KEYSTORE = "/tls/local-fake-tls.p12";
    private static final char[] PASSWORD = "local-fake".toCharArray();
    /** The alias of the key pair in {@link #KEYSTORE} (see its README). */
    private static final String ALIAS = "local-fake";
    private static final KeyStore IDENTITY = load();

    private LocalHttps() {
    }

    /**
     * Starts an HTTPS server on a free loopback port that hands every request to the handler, one request at a time
     * (the JDK server's own thread).
     */
    public static HttpsServer start(HttpHandler handler) throws IOException {
        return start(handler, null);
    }

    /**
     * Starts an HTTPS server on a free loopback port that hands every request to the handler on {@code executor}
     * (several at once with a pool of threads: a slow reply then holds no other request). The JDK server takes its
     * executor only before it starts, hence here.
     *
     * @param executor the handler's threads, or null for the server's own single thread
     */
    public static HttpsServer start(HttpHandler handler, Executor executor) throws IOException {
        HttpsServer server = HttpsServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(serverContext()));
        server.createContext("/", handler);
        server.setExecutor(executor);
        server.start();
        return server;
    }

    /** The server's address as the SDK should call it, e.g. {@code https://127.0.0.1:43117} (no trailing slash). */
    public static String baseUrl(HttpsServer server) {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /**
     * The SDK's Netty client, trusting the fakes' certificate only. It ignores the proxy settings of the environment
     * ({@link Configuration#NONE}): a proxy would not reach a loopback server.
     */
    public static HttpClient trustingHttpClient() {
        try {
            SslContext tls = SslContextBuilder.forClient().trustManager(trustFactory()).build();
            return new NettyAsyncHttpClientBuilder(reactor.netty.http.client.HttpClient.create()
                    .secure(spec -> spec.sslContext(tls)))
                    .configuration(Configuration.NONE)
                    .build();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /**
     * Trust in exactly the fakes' certificate, for clients other than the SDK's Netty one (OkHttp under the Batch
     * SDK, {@code java.net.http}).
     */
    public static X509TrustManager trustManager() {
        for (TrustManager manager : trustFactory().getTrustManagers()) {
            if (manager instanceof X509TrustManager x509) {
                return x509;
            }
        }
        throw new IllegalStateException("the JDK offers no X.509 trust manager for " + KEYSTORE);
    }

    /** A TLS context whose clients trust exactly the fakes' certificate ({@link #trustManager()}). */
    public static SSLContext trustingContext() {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, new TrustManager[] {trustManager()}, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + KEYSTORE, e);
        }
    }

    /**
     * Writes a PKCS12 trust store holding exactly the fakes' certificate (no key), for a JVM of its own (the
     * {@code gantry} CLI started against the fakes) to trust them with {@code -Djavax.net.ssl.trustStore=FILE
     * -Djavax.net.ssl.trustStorePassword=PASSWORD -Djavax.net.ssl.trustStoreType=PKCS12}. Replaces the file.
     */
    public static void writeTrustStore(Path file, char[] password) {
        try {
            KeyStore trust = KeyStore.getInstance("PKCS12");
            trust.load(null, null);
            trust.setCertificateEntry(ALIAS, IDENTITY.getCertificate(ALIAS));
            try (OutputStream out = Files.newOutputStream(file)) {
                trust.store(out, password);
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot write the trust store " + file, e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot make a trust store of " + KEYSTORE, e);
        }
    }

    private static TrustManagerFactory trustFactory() {
        try {
            TrustManagerFactory trust = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            trust.init(IDENTITY);
            return trust;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot trust " + KEYSTORE, e);
        }
    }

    /**
     * A request's query parameters, decoded. Sorted by name, so that recorded requests read the same whatever order
     * the SDK wrote them in.
     */
    public static Map<String, String> query(String raw) {
        Map<String, String> query = new TreeMap<>();
        if (raw == null || raw.isEmpty()) {
            return query;
        }
        for (String pair : raw.split("&")) {
            int equals = pair.indexOf('=');
            String name = URLDecoder.decode(equals < 0 ? pair : pair.substring(0, equals), StandardCharsets.UTF_8);
            String value = equals < 0 ? "" : URLDecoder.decode(pair.substring(equals + 1), StandardCharsets.UTF_8);
            query.put(name, value);
        }
        return query;
    }

    private static SSLContext serverContext() {
        try {
            KeyManagerFactory keys = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
            keys.init(IDENTITY, PASSWORD);
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(keys.getKeyManagers(), null, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("cannot serve TLS with " + KEYSTORE, e);
        }
    }

    private static KeyStore load() {
        try (InputStream in = LocalHttps.class.getResourceAsStream(KEYSTORE)) {
            if (in == null) {
                throw new IllegalStateException(KEYSTORE + " is missing from the test class path");
            }
            KeyStore store = KeyStore.getInstance("PKCS12");
            store.load(in, PASSWORD);
            return store;
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot read " + KEYSTORE, e);
        }
    }
}
