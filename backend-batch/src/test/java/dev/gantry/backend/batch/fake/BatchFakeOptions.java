package dev.gantry.backend.batch.fake;

import java.nio.file.Path;
import java.security.SecureRandom;
import java.time.Duration;
import java.util.Base64;

/**
 * How a {@link BatchFake} is set up; every setter returns this options object. Defaults: account {@code gantryfake}
 * with a random key, plain HTTP on loopback, shared key and bearer tokens both taken, an active-job quota of 100,
 * each pool's autoscale formula evaluated at its own interval (by the formula interpreter,
 * {@link dev.gantry.backend.batch.fake.autoscale.FormulaEvaluator}, over the metrics the fake samples), nodes in the
 * network namespaces of {@code scripts/test-batch.sh nodes-up}, an idle node kept {@link #DEFAULT_NODE_RETENTION}
 * before scale-in removes it, a temporary root directory, no blobs.
 */
public final class BatchFakeOptions {
    /**
     * How long an idle node outlives its last task before scale-in may take it, by default: Batch samples a pool's
     * metrics every 30 seconds and evaluates its formula at least 5 minutes apart, so a node that ended its task is
     * seen idle only after a sample and taken away only at a later evaluation; until then its task's files can be
     * read. The fake evaluates far more often in tests, so without this floor a node would vanish with its files the
     * instant its task ended, which Batch does not do.
     */
    public static final Duration DEFAULT_NODE_RETENTION = Duration.ofSeconds(30);

    String account = "gantryfake";
    byte[] key = randomKey();
    boolean https;
    boolean sharedKey = true;
    boolean entra = true;
    int activeJobQuota = 100;
    Path root;
    NodeProcesses processes;
    Duration autoscaleInterval;
    Duration nodeRetention = DEFAULT_NODE_RETENTION;
    Duration tick = Duration.ofMillis(50);
    Duration poolDeletion = Duration.ofMillis(500);
    BlobSource blobs = BlobSource.none();

    public BatchFakeOptions account(String name) {
        this.account = name;
        return this;
    }

    /** The account key, Base64 as Azure shows it. */
    public BatchFakeOptions key(String base64) {
        this.key = Base64.getDecoder().decode(base64);
        return this;
    }

    /** Serve HTTPS through the Azure module's LocalHttps (its test certificate) instead of plain HTTP. */
    public BatchFakeOptions https(boolean https) {
        this.https = https;
        return this;
    }

    /** Which authentications the account takes (a user-subscription account takes no shared key). */
    public BatchFakeOptions auth(boolean sharedKey, boolean entra) {
        this.sharedKey = sharedKey;
        this.entra = entra;
        return this;
    }

    /** How many jobs may be active at once before job add answers ActiveJobAndScheduleQuotaReached. */
    public BatchFakeOptions activeJobQuota(int quota) {
        this.activeJobQuota = quota;
        return this;
    }

    /** Where the nodes' directories go (a fresh temporary directory when unset, removed at close). */
    public BatchFakeOptions root(Path root) {
        this.root = root;
        return this;
    }

    /** Evaluate every autoscale pool at this interval instead of its own (Batch's minimum is 5 minutes). */
    public BatchFakeOptions autoscaleInterval(Duration interval) {
        this.autoscaleInterval = interval;
        return this;
    }

    /**
     * How long a node must have been idle before scale-in removes it ({@link #DEFAULT_NODE_RETENTION} unless set):
     * a test of scale-in itself sets it short, {@link Duration#ZERO} for the rare case Batch also shows, a node
     * leaving as soon as its task ends because a resize with {@code taskcompletion} was already under way.
     */
    public BatchFakeOptions nodeRetention(Duration retention) {
        if (retention.isNegative()) {
            throw new IllegalArgumentException("nodeRetention must not be negative, got " + retention);
        }
        this.nodeRetention = retention;
        return this;
    }

    public BatchFakeOptions processes(NodeProcesses processes) {
        this.processes = processes;
        return this;
    }

    public BatchFakeOptions blobs(BlobSource blobs) {
        this.blobs = blobs;
        return this;
    }

    /** How long a deleted pool stays in {@code deleting} (PoolBeingDeleted) before it is gone. */
    public BatchFakeOptions poolDeletion(Duration duration) {
        this.poolDeletion = duration;
        return this;
    }

    private static byte[] randomKey() {
        byte[] key = new byte[64];
        new SecureRandom().nextBytes(key);
        return key;
    }
}
