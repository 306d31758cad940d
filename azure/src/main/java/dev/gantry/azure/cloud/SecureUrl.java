package dev.gantry.azure.cloud;

import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.UnknownHostException;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * Which addresses Gantry sends a cloud's requests to: https anywhere, plain http only to this machine (a local fake in
 * a test), where nothing on the way can read or change the answer. Tokens travel to these addresses, and the metadata
 * document decides where the rest go.
 */
final class SecureUrl {
    private static final Pattern IPV4 = Pattern.compile("\\d{1,3}(\\.\\d{1,3}){3}");

    private SecureUrl() {
    }

    /** The address, or empty when it is not an absolute https URL (or an http URL of a loopback host). */
    static Optional<URI> parse(String text) {
        URI uri;
        try {
            uri = new URI(text.strip());
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
        if (!uri.isAbsolute() || uri.getHost() == null || uri.getScheme() == null) {
            return Optional.empty();
        }
        String scheme = uri.getScheme().toLowerCase(Locale.ROOT);
        boolean secure = scheme.equals("https") || scheme.equals("http") && loopback(uri.getHost());
        return secure ? Optional.of(uri) : Optional.empty();
    }

    /**
     * Whether the host is this machine: {@code localhost} or a loopback address literal. A name is never looked up:
     * what a name resolves to is not the name's owner's promise.
     */
    static boolean loopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!IPV4.matcher(bare).matches() && !bare.contains(":")) {
            return false;
        }
        try {
            // An address literal: parsed, not resolved.
            return InetAddress.getByName(bare).isLoopbackAddress();
        } catch (UnknownHostException e) {
            return false;
        }
    }
}
