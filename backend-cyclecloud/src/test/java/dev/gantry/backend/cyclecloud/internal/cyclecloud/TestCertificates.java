package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * Self-signed server certificates made at test time with the JDK's keytool: a PKCS12 key store for the fake server
 * and the certificate alone in PEM, as a user would hand CycleCloud's certificate to the client.
 */
final class TestCertificates {
    static final char[] STORE_PASSWORD = "changeit".toCharArray();

    /** A key store and its certificate in PEM. */
    record Certificate(Path keystore, Path pem) {
    }

    private TestCertificates() {
    }

    /**
     * A new key pair and self-signed certificate.
     *
     * @param dir where the files go
     * @param alias the files' base name
     * @param subjectAlternativeNames keytool's SAN list, e.g. {@code ip:127.0.0.1,dns:localhost}
     */
    static Certificate selfSigned(Path dir, String alias, String subjectAlternativeNames)
            throws IOException, InterruptedException {
        Path keystore = dir.resolve(alias + ".p12");
        Path pem = dir.resolve(alias + ".pem");
        String password = new String(STORE_PASSWORD);
        keytool(List.of("-genkeypair", "-alias", alias, "-keyalg", "EC", "-groupname", "secp256r1",
                "-dname", "CN=" + alias, "-ext", "SAN=" + subjectAlternativeNames, "-validity", "2",
                "-keystore", keystore.toString(), "-storetype", "PKCS12", "-storepass", password,
                "-keypass", password, "-noprompt"));
        keytool(List.of("-exportcert", "-rfc", "-alias", alias, "-keystore", keystore.toString(),
                "-storetype", "PKCS12", "-storepass", password, "-file", pem.toString()));
        if (!Files.readString(pem).startsWith("-----BEGIN CERTIFICATE-----")) {
            throw new IllegalStateException("keytool wrote no PEM certificate to " + pem);
        }
        return new Certificate(keystore, pem);
    }

    private static void keytool(List<String> arguments) throws IOException, InterruptedException {
        Path keytool = Path.of(System.getProperty("java.home"), "bin", "keytool");
        List<String> command = new java.util.ArrayList<>();
        command.add(keytool.toString());
        command.addAll(arguments);
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!process.waitFor(60, TimeUnit.SECONDS) || process.exitValue() != 0) {
            process.destroyForcibly();
            throw new IllegalStateException("keytool " + arguments.get(0) + " failed: " + output);
        }
    }
}
