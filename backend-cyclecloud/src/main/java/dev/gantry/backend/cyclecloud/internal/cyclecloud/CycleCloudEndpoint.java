package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SecretRef;
import java.net.URI;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * Where the CycleCloud REST API of a cluster is and how to sign in to it: the settings {@link CycleCloudClient}
 * needs, validated together so that every wrong field is reported at once. Holds a reference to the password,
 * never the password, so that the record is safe to print.
 *
 * @param url CycleCloud's address, {@code https://HOST[:PORT][/PATH]}, without credentials, query or fragment
 * @param cluster the cluster's name in CycleCloud
 * @param user the CycleCloud user to sign in as (HTTP basic authentication)
 * @param password where the user's password lives; resolved for each call, never stored
 * @param caFile a PEM file with the certificate(s) to trust for {@code url} instead of the JDK's trust store, for
 *               CycleCloud's own self-signed certificate
 * @param insecureSkipTlsVerify trust any certificate for any host name: anyone on the network path can then
 *                              impersonate CycleCloud and read the password; for throwaway test clusters only
 * @param timeout how long to wait to connect, and then for the answer
 */
public record CycleCloudEndpoint(URI url, String cluster, String user, SecretRef password, Optional<Path> caFile,
                                 boolean insecureSkipTlsVerify, Duration timeout) {
    /** A timeout that lets a busy CycleCloud answer a status request for a large cluster. */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(30);
    private static final Duration LONGEST_TIMEOUT = Duration.ofMinutes(10);

    public CycleCloudEndpoint {
        Objects.requireNonNull(caFile, "caFile");
        List<Problem> problems = new ArrayList<>();
        if (url == null) {
            problems.add(Problem.of("url", "missing; give CycleCloud's address, e.g. https://cyclecloud.example.com"));
        } else {
            urlProblems(url, problems);
        }
        if (cluster == null || cluster.isBlank() || !cluster.equals(cluster.strip())
                || cluster.chars().anyMatch(Character::isISOControl)) {
            problems.add(Problem.of("cluster", "must be the cluster's name as CycleCloud shows it, without leading or "
                    + "trailing blanks, got '" + cluster + "'"));
        }
        if (user == null || user.isBlank() || user.indexOf(':') >= 0 || user.chars().anyMatch(Character::isISOControl)) {
            // RFC 7617: the user-id of basic authentication ends at the first colon.
            problems.add(Problem.of("user", "must be a CycleCloud user name without ':', got '" + user + "'"));
        }
        if (password == null) {
            problems.add(Problem.of("password", "missing; give a secret reference (env:NAME, file:PATH or a Key Vault"
                    + " secret URI) for the user's password"));
        }
        if (insecureSkipTlsVerify && caFile.isPresent()) {
            problems.add(Problem.of("insecureSkipTlsVerify", "is true while caFile is set to " + caFile.get()
                    + "; with caFile the certificate is verified, so set insecureSkipTlsVerify to false"));
        }
        if (timeout == null || timeout.isNegative() || timeout.isZero() || timeout.compareTo(LONGEST_TIMEOUT) > 0) {
            problems.add(Problem.of("timeout", "must be more than 0 and at most 10m, got " + timeout));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    /** The URL of {@code GET /clusters/{cluster}/status}, the cluster name percent-encoded as one path segment. */
    public URI statusUri(String clusterName, boolean nodes) {
        String segment = URLEncoder.encode(clusterName, StandardCharsets.UTF_8).replace("+", "%20");
        return URI.create(base() + "/clusters/" + segment + "/status" + (nodes ? "?nodes=true" : ""));
    }

    /** The address as messages show it: {@code url} without a trailing slash (it carries no credentials). */
    public String base() {
        String text = url.toString();
        return text.endsWith("/") ? text.substring(0, text.length() - 1) : text;
    }

    private static void urlProblems(URI url, List<Problem> problems) {
        if (url.getRawUserInfo() != null) {
            // The message must not repeat the credentials, so it shows the address without them.
            problems.add(Problem.of("url", "must not carry a user or password (user:password@), got "
                    + withoutUserInfo(url) + " with credentials; set user, and password to a secret reference"));
            return;
        }
        String scheme = url.getScheme() == null ? "" : url.getScheme().toLowerCase(Locale.ROOT);
        if (!scheme.equals("https")) {
            problems.add(Problem.of("url", "must be an https:// address (basic authentication over http would send "
                    + "the password in the clear), got '" + url + "'; for CycleCloud's self-signed certificate set "
                    + "caFile"));
        } else if (url.getHost() == null) {
            problems.add(Problem.of("url", "must name a host, got '" + url + "'"));
        }
        if (url.getRawQuery() != null || url.getRawFragment() != null) {
            problems.add(Problem.of("url", "must have no query or fragment, got '" + url + "'; give CycleCloud's "
                    + "address only"));
        }
    }

    private static String withoutUserInfo(URI url) {
        return (url.getScheme() == null ? "" : url.getScheme() + "://") + (url.getHost() == null ? "?" : url.getHost())
                + (url.getPort() >= 0 ? ":" + url.getPort() : "") + (url.getRawPath() == null ? "" : url.getRawPath());
    }
}
