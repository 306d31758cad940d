package dev.gantry.backend.batch.internal.rest;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * A Batch account's URL, {@code https://ACCOUNT.REGION.batch.azure.com}. It must be {@code https}: a shared-key
 * signature or a bearer token must never cross the network in clear. {@code http} is accepted for a loopback host
 * only (the local test service), where nothing leaves the machine.
 *
 * @param baseUrl the URL without a trailing slash, as the SDK's protocol layer joins paths to it
 */
public record BatchAccountUrl(String baseUrl) {
    private static final String FIX = "use the account's URL as the Azure portal shows it, "
            + "https://ACCOUNT.REGION.batch.azure.com (http only for a local test service on a loopback address)";

    public BatchAccountUrl {
        Objects.requireNonNull(baseUrl, "baseUrl");
        problem(baseUrl).ifPresent(problem -> {
            throw new IllegalArgumentException(problem);
        });
        baseUrl = stripTrailingSlash(baseUrl.strip());
    }

    /** The URL, checked; an {@link IllegalArgumentException} says what is wrong with it and the fix. */
    public static BatchAccountUrl of(String url) {
        return new BatchAccountUrl(url);
    }

    /**
     * What is wrong with {@code url} as an account URL (the value, what is allowed, the fix), or empty when it is
     * fine: for binding settings through {@code ConfigProblems.add(key, message)}.
     */
    public static Optional<String> problem(String url) {
        if (url == null || url.isBlank()) {
            return Optional.of("the account URL is empty; " + FIX);
        }
        URI uri;
        try {
            uri = new URI(url.strip());
        } catch (URISyntaxException e) {
            return Optional.of("'" + url + "' is not a URL (" + e.getReason() + "); " + FIX);
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            return Optional.of("'" + url + "' is not an https URL with a host; " + FIX);
        }
        if (uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || !(uri.getRawPath() == null || uri.getRawPath().isEmpty() || uri.getRawPath().equals("/"))) {
            return Optional.of("'" + url + "' has more than a scheme, a host and a port (a path, a query or a user); "
                    + FIX);
        }
        if (scheme.equals("http") && !isLoopback(uri.getHost())) {
            return Optional.of("'" + url + "' uses http, which would send the account's key or token in clear; http "
                    + "is accepted only for a loopback host (localhost, 127.0.0.1, [::1]); " + FIX);
        }
        return Optional.empty();
    }

    /** The host, e.g. {@code myaccount.westeurope.batch.azure.com}. */
    public String host() {
        return URI.create(baseUrl).getHost();
    }

    /**
     * The account name as a Batch URL spells it (the host's first label, in lower case); empty for an IP address
     * (a local test service), where the name must be given with the shared key.
     */
    public Optional<String> accountNameFromHost() {
        String host = host();
        if (host.startsWith("[") || host.matches("[0-9.]+") || !host.contains(".")) {
            return Optional.empty();
        }
        return Optional.of(host.substring(0, host.indexOf('.')).toLowerCase(Locale.ROOT));
    }

    /** Whether requests travel in clear: only ever to a loopback host. */
    public boolean isPlainHttp() {
        return baseUrl.regionMatches(true, 0, "http:", 0, 5);
    }

    @Override
    public String toString() {
        return baseUrl;
    }

    private static boolean isLoopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        // Literal addresses only: a name is never resolved here, so DNS cannot turn a remote host into a "loopback".
        if (!bare.matches("[0-9.]+") && !bare.contains(":")) {
            return false;
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }

    private static String stripTrailingSlash(String url) {
        return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    }
}
