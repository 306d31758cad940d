package dev.gantry.backend.batch.internal;

import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigProblems;
import java.net.InetAddress;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * One Batch account of {@code backends.batch.accounts[*]}: plans of its region run there.
 *
 * @param url the account's endpoint, {@code https://ACCOUNT.REGION.batch.azure.com} ({@code http://} only on a
 *     loopback host: the local test service)
 * @param region the Azure region whose plans it runs
 * @param auth how Gantry signs in
 * @param key the shared key's secret reference (shared key only)
 * @param resourceId its Resource Manager id, when given: needed for Spot, pool identities and quota checks
 */
public record BatchAccountSettings(URI url, String region, BatchAuth auth, Optional<SecretRef> key,
                                   Optional<String> resourceId) {
    public static final String ACCOUNTS = "accounts";
    public static final String URL = "url";
    public static final String REGION = "region";
    public static final String AUTH = "auth";
    public static final String KEY = "key";
    public static final String RESOURCE_ID = "resourceId";

    private static final Pattern REGION_NAME = Pattern.compile("[a-z][a-z0-9]*");
    private static final Pattern ACCOUNT_RESOURCE_ID = Pattern.compile("/subscriptions/[0-9a-fA-F-]{36}"
            + "/resourceGroups/[-\\w._()]{1,90}/providers/Microsoft\\.Batch/batchAccounts/[a-z0-9]{3,24}",
            Pattern.CASE_INSENSITIVE);
    private static final String RESOURCE_ID_EXAMPLE = "/subscriptions/SUBSCRIPTION-ID/resourceGroups/GROUP/providers/"
            + "Microsoft.Batch/batchAccounts/ACCOUNT";

    public BatchAccountSettings {
        Objects.requireNonNull(url, "url");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(auth, "auth");
        Objects.requireNonNull(key, "key");
        Objects.requireNonNull(resourceId, "resourceId");
    }

    /**
     * The account's name as Gantry writes it into job references: the endpoint's first DNS label
     * ({@code mlbatch} of {@code https://mlbatch.eastus.batch.azure.com}); on a loopback endpoint, which names no
     * account, the region (unique among the accounts).
     */
    public String name() {
        String host = url.getHost().toLowerCase(Locale.ROOT);
        if (isLoopback(host) || !Character.isLetter(host.charAt(0))) {
            return region;
        }
        int dot = host.indexOf('.');
        return dot < 0 ? host : host.substring(0, dot);
    }

    /** Binds every {@code accounts[i]}, each wrong key kept in {@code problems}; at least one account is needed. */
    static List<BatchAccountSettings> bindAll(BackendConfig config, ConfigProblems problems) {
        int count = config.count(ACCOUNTS);
        if (count == 0) {
            problems.add(ACCOUNTS, "is required: at least one Batch account, e.g. accounts: [{url: "
                    + "https://ACCOUNT.REGION.batch.azure.com, region: REGION, auth: entra}]");
            return List.of();
        }
        List<BatchAccountSettings> accounts = new ArrayList<>();
        Map<String, String> regions = new HashMap<>();
        for (int i = 0; i < count; i++) {
            String at = ACCOUNTS + "[" + i + "]";
            bind(config, at, problems).ifPresent(accounts::add);
            // Checked on the value written, so that it is said even when the account has other problems.
            text(config, at + "." + REGION).ifPresent(region -> {
                String earlier = regions.putIfAbsent(region, at);
                if (earlier != null) {
                    problems.add(at + "." + REGION, "'" + region + "' is also the region of " + earlier + "."
                            + REGION + "; each region has one account (plans go to the account of their region): "
                            + "remove one of them");
                }
            });
        }
        return accounts;
    }

    private static Optional<BatchAccountSettings> bind(BackendConfig config, String at, ConfigProblems problems) {
        Optional<URI> url = text(config, at + "." + URL).flatMap(value -> {
            Optional<String> problem = urlProblem(value);
            problem.ifPresent(message -> problems.add(at + "." + URL, message));
            return problem.isPresent() ? Optional.empty() : Optional.of(URI.create(value));
        });
        if (text(config, at + "." + URL).isEmpty()) {
            problems.add(at + "." + URL, "is required: the account's endpoint as the portal shows it, e.g. "
                    + "https://mlbatch.eastus.batch.azure.com");
        }
        Optional<String> region = text(config, at + "." + REGION);
        if (region.isEmpty()) {
            problems.add(at + "." + REGION, "is required: the Azure region whose plans run in this account, e.g. "
                    + "eastus");
        } else if (!REGION_NAME.matcher(region.get()).matches()) {
            problems.add(at + "." + REGION, "'" + region.get() + "' is not an Azure region name: lower-case letters "
                    + "and digits, e.g. eastus or westus2");
            region = Optional.empty();
        }
        Optional<SecretRef> key = secret(config, at + "." + KEY, problems);
        boolean keyGiven = text(config, at + "." + KEY).isPresent();
        // Without auth, a key means shared key and its absence Entra ID: what the user most likely meant.
        BatchAuth fallback = keyGiven ? BatchAuth.SHARED_KEY : BatchAuth.ENTRA;
        BatchAuth auth = problems.read(() -> BatchAuth.ofConfigName(config.getChoice(at + "." + AUTH,
                fallback.configName(), BatchAuth.configNames()).strip()).orElseThrow(), fallback);
        if (auth == BatchAuth.ENTRA && keyGiven) {
            problems.add(at + "." + KEY, "is set while " + at + "." + AUTH + " is entra: a key is only for "
                    + "auth: sharedKey; remove " + at + "." + KEY + " or set " + at + "." + AUTH + ": sharedKey");
        }
        if (auth == BatchAuth.SHARED_KEY && !keyGiven) {
            problems.add(at + "." + KEY, "is required with " + at + "." + AUTH + ": sharedKey: a secret reference "
                    + "to the account's key (env:NAME, file:PATH or a Key Vault secret); or set " + at + "." + AUTH
                    + ": entra");
        }
        Optional<String> resourceId = text(config, at + "." + RESOURCE_ID);
        if (resourceId.isPresent() && !ACCOUNT_RESOURCE_ID.matcher(resourceId.get()).matches()) {
            problems.add(at + "." + RESOURCE_ID, "'" + resourceId.get() + "' is not a Batch account's Resource "
                    + "Manager id; give " + RESOURCE_ID_EXAMPLE + " (the portal's account Properties show it)");
            resourceId = Optional.empty();
        }
        if (url.isEmpty() || region.isEmpty()) {
            return Optional.empty();
        }
        return Optional.of(new BatchAccountSettings(url.get(), region.get(), auth, key, resourceId));
    }

    /**
     * What is wrong with an account URL, each message naming the value and the fix: {@code https} with a host and
     * nothing else (no path, query, user or fragment); {@code http} only for a loopback host (the local test
     * service), never for a real account, whose key or token would cross the network in clear.
     */
    public static Optional<String> urlProblem(String value) {
        URI uri;
        try {
            uri = new URI(value);
        } catch (URISyntaxException e) {
            return Optional.of("'" + value + "' is not a URL (" + e.getReason() + "); give the account's endpoint, "
                    + "e.g. https://mlbatch.eastus.batch.azure.com");
        }
        String scheme = uri.getScheme() == null ? "" : uri.getScheme().toLowerCase(Locale.ROOT);
        if (uri.getHost() == null || !(scheme.equals("https") || scheme.equals("http"))) {
            return Optional.of("'" + value + "' is not an https:// URL with a host; give the account's endpoint, "
                    + "e.g. https://mlbatch.eastus.batch.azure.com");
        }
        if (scheme.equals("http") && !isLoopback(uri.getHost())) {
            return Optional.of("'" + value + "' is plain http to a host that is not this machine: the key or token "
                    + "would cross the network in clear; use https://" + uri.getRawAuthority()
                    + " (http:// is accepted only for a loopback test service such as http://127.0.0.1:PORT)");
        }
        boolean extra = uri.getRawUserInfo() != null || uri.getRawQuery() != null || uri.getRawFragment() != null
                || uri.getRawPath() != null && !uri.getRawPath().isEmpty() && !uri.getRawPath().equals("/");
        if (extra) {
            return Optional.of("'" + value + "' has more than a scheme and a host (a path, query, user or fragment); "
                    + "give the endpoint alone, e.g. " + scheme + "://" + uri.getRawAuthority());
        }
        return Optional.empty();
    }

    /** localhost, 127.0.0.0/8 or ::1, decided without a name lookup. */
    static boolean isLoopback(String host) {
        String bare = host.startsWith("[") && host.endsWith("]") ? host.substring(1, host.length() - 1) : host;
        if (bare.equalsIgnoreCase("localhost")) {
            return true;
        }
        if (!bare.matches("[0-9.]+") && !bare.contains(":")) {
            return false; // a DNS name: never resolved here
        }
        try {
            return InetAddress.getByName(bare).isLoopbackAddress(); // a literal: parsed, not looked up
        } catch (java.net.UnknownHostException e) {
            return false;
        }
    }

    /** The key's reference; a problem that never repeats the value, which may be the key itself pasted in. */
    private static Optional<SecretRef> secret(BackendConfig config, String key, ConfigProblems problems) {
        Optional<String> value = text(config, key);
        try {
            return value.map(SecretRef::parse);
        } catch (GantryException e) {
            problems.add(key, "is not a secret reference (its value is not repeated here: it may be the key itself); "
                    + "give env:NAME, file:PATH or https://VAULT.vault.azure.net/secrets/NAME, and keep the key out "
                    + "of gantry.yaml");
            return Optional.empty();
        }
    }

    static Optional<String> text(BackendConfig config, String key) {
        return config.get(key).map(String::strip).filter(v -> !v.isEmpty());
    }
}
