package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.io.InputStream;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyStore;
import java.security.NoSuchAlgorithmException;
import java.security.cert.Certificate;
import java.security.cert.CertificateException;
import java.security.cert.CertificateFactory;
import java.security.cert.X509Certificate;
import java.util.Collection;
import javax.net.ssl.SSLContext;
import javax.net.ssl.SSLEngine;
import javax.net.ssl.TrustManager;
import javax.net.ssl.TrustManagerFactory;
import javax.net.ssl.X509ExtendedTrustManager;

/**
 * Which certificates the client trusts for CycleCloud: the JDK's trust store (a CycleCloud behind a certificate from
 * a public CA), only the certificates of a PEM file (CycleCloud's own self-signed one), or, when
 * {@code insecureSkipTlsVerify} says so, any certificate for any host name, with a warning each time.
 */
final class CycleCloudTrust {
    private CycleCloudTrust() {
    }

    /** The TLS context for the endpoint's settings; logs a warning when verification is off. */
    static SSLContext sslContext(CycleCloudEndpoint endpoint, System.Logger logger) {
        if (endpoint.insecureSkipTlsVerify()) {
            logger.log(System.Logger.Level.WARNING, "insecureSkipTlsVerify is true for CycleCloud at "
                    + endpoint.base() + ": its certificate and host name are NOT verified, so anyone on the network "
                    + "path can impersonate it and read the password of user '" + endpoint.user() + "'; set caFile "
                    + "to CycleCloud's certificate (PEM) instead");
            return context(new TrustManager[] {new TrustAnything()});
        }
        if (endpoint.caFile().isPresent()) {
            return context(fromPem(endpoint.caFile().get()));
        }
        try {
            return SSLContext.getDefault();
        } catch (NoSuchAlgorithmException e) {
            throw new GantryException(ErrorCode.INTERNAL, "the JDK has no default TLS context: " + e.getMessage(), e);
        }
    }

    /** Trust managers that trust exactly the certificates in the file (the JDK's own CAs are not added). */
    static TrustManager[] fromPem(Path file) {
        Collection<? extends Certificate> certificates;
        try (InputStream in = Files.newInputStream(file)) {
            certificates = CertificateFactory.getInstance("X.509").generateCertificates(in);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "caFile: cannot read " + file + " (" + e + "); give "
                    + "a PEM file with CycleCloud's certificate, e.g. saved with: openssl s_client -connect HOST:443 "
                    + "</dev/null | openssl x509 > cyclecloud.pem", e);
        } catch (CertificateException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "caFile: " + file + " holds no readable X.509 "
                    + "certificate (" + e.getMessage() + "); give a PEM file of -----BEGIN CERTIFICATE----- blocks", e);
        }
        if (certificates.isEmpty()) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "caFile: " + file + " holds no certificate; give a PEM"
                    + " file of -----BEGIN CERTIFICATE----- blocks");
        }
        try {
            KeyStore store = KeyStore.getInstance(KeyStore.getDefaultType());
            store.load(null, null);
            int i = 0;
            for (Certificate certificate : certificates) {
                store.setCertificateEntry("cyclecloud-" + i++, certificate);
            }
            TrustManagerFactory factory = TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
            factory.init(store);
            return factory.getTrustManagers();
        } catch (GeneralSecurityException | IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot build a trust store from " + file + ": " + e, e);
        }
    }

    private static SSLContext context(TrustManager[] trust) {
        try {
            SSLContext context = SSLContext.getInstance("TLS");
            context.init(null, trust, null);
            return context;
        } catch (GeneralSecurityException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot set up TLS: " + e, e);
        }
    }

    /**
     * Accepts every server certificate. An {@link X509ExtendedTrustManager} on purpose: the JDK checks the host name
     * inside the extended trust manager, and wraps a plain one in a manager that would still check it.
     */
    private static final class TrustAnything extends X509ExtendedTrustManager {
        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, Socket socket) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType, SSLEngine engine) {
        }

        @Override
        public void checkServerTrusted(X509Certificate[] chain, String authType) {
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, Socket socket)
                throws CertificateException {
            throw new CertificateException("this client does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType, SSLEngine engine)
                throws CertificateException {
            throw new CertificateException("this client does not accept client certificates");
        }

        @Override
        public void checkClientTrusted(X509Certificate[] chain, String authType) throws CertificateException {
            throw new CertificateException("this client does not accept client certificates");
        }

        @Override
        public X509Certificate[] getAcceptedIssuers() {
            return new X509Certificate[0];
        }
    }
}
