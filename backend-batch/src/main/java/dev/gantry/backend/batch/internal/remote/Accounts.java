package dev.gantry.backend.batch.internal.remote;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.SecretResolver;
import dev.gantry.backend.batch.internal.BatchAccountSettings;
import dev.gantry.backend.batch.internal.BatchSettings;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchAccountUrl;
import dev.gantry.backend.batch.internal.rest.BatchAuth;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.Supplier;

/**
 * One {@link BatchConnection} per configured account, opened on first use: a shared key is resolved then, from its
 * secret reference, and kept only inside the connection's signer; Entra ID takes its tokens from gantry-azure (the
 * optional module is asked for only then). Connections are shared by every caller and closed together.
 */
public final class Accounts implements AutoCloseable {
    /** How a connection is opened: {@code BatchConnection::open}, or one trusting a test service's certificate. */
    @FunctionalInterface
    public interface Opener {
        BatchConnection open(BatchAccountUrl url, BatchAuth auth);
    }

    private final BatchSettings settings;
    private final SecretResolver secrets;
    private final EntraSignIn entra;
    private final Opener opener;
    private final Map<String, BatchConnection> open = new ConcurrentHashMap<>();

    /** How an {@code entra} account signs in: a token source and the Batch scope of the account's cloud. */
    @FunctionalInterface
    private interface EntraSignIn {
        BatchAuth.Entra signIn();
    }

    /**
     * @param entraTokens where Entra ID tokens come from, asked only when an {@code entra} account is first used;
     *     they are asked for the public cloud's Batch scope
     */
    public Accounts(BatchSettings settings, SecretResolver secrets, Supplier<AccessTokenSource> entraTokens,
                    Opener opener) {
        this(settings, secrets, publicCloud(entraTokens), opener);
    }

    private Accounts(BatchSettings settings, SecretResolver secrets, EntraSignIn entra, Opener opener) {
        this.settings = Objects.requireNonNull(settings, "settings");
        this.secrets = Objects.requireNonNull(secrets, "secrets");
        this.entra = Objects.requireNonNull(entra, "entra");
        this.opener = Objects.requireNonNull(opener, "opener");
    }

    /**
     * The production wiring: the module's default credential chain and the Batch scope of the cloud it reaches, the
     * JDK's trust store.
     */
    public static Accounts of(BatchSettings settings, SecretResolver secrets) {
        return new Accounts(settings, secrets, (EntraSignIn) () -> AzureModule.entra(
                "backends.batch.accounts[*].auth: entra"), BatchConnection::open);
    }

    private static EntraSignIn publicCloud(Supplier<AccessTokenSource> entraTokens) {
        Objects.requireNonNull(entraTokens, "entraTokens");
        return () -> new BatchAuth.Entra(entraTokens.get());
    }

    /** The account that runs plans of {@code region}; USAGE naming the regions configured when none does. */
    public BatchAccountSettings forRegion(String region) {
        return settings.account(region).orElseThrow(() -> new GantryException(ErrorCode.USAGE, "no Batch account "
                + "runs plans of region '" + region + "': backends.batch.accounts has "
                + settings.accounts().stream().map(BatchAccountSettings::region).toList() + "; add an account with "
                + "region: " + region + ", or plan for one of those regions"));
    }

    /** The account's connection, opened (and its key resolved) on first use. */
    public BatchConnection connection(BatchAccountSettings account) {
        return open.computeIfAbsent(account.name(), name -> opener.open(BatchAccountUrl.of(account.url().toString()),
                auth(account)));
    }

    private BatchAuth auth(BatchAccountSettings account) {
        if (account.auth() == dev.gantry.backend.batch.internal.BatchAuth.ENTRA) {
            return entra.signIn();
        }
        String key = secrets.resolve(account.key().orElseThrow(() -> new IllegalStateException("a shared-key "
                + "account without a key passed binding"))).reveal();
        return new BatchAuth.SharedKey(account.name(), key);
    }

    /** Every HTTP request sent to every account so far, each attempt counted. */
    public long remoteCalls() {
        return open.values().stream().mapToLong(BatchConnection::remoteCalls).sum();
    }

    @Override
    public void close() {
        List<BatchConnection> connections = new ArrayList<>(open.values());
        open.clear();
        connections.forEach(BatchConnection::close);
    }
}
