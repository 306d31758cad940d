package dev.gantry.backend.batch.internal.render;

import dev.gantry.api.ImageRef;
import dev.gantry.api.Plan;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Objects;
import java.util.Optional;

/**
 * What makes two plans share a pool: one pool per (account, VM size, image, node agent SKU, Spot or not, several
 * nodes or not, boot digest, identity). Container images are not part of it: a pool prefetches the image it was made
 * for and pulls others at task start.
 *
 * @param account the account's name
 * @param vmSize the VM size, as Azure spells it
 * @param image the VM image's id (a marketplace URN or a gallery image id)
 * @param nodeAgentSku the node agent SKU that fits the image
 * @param spot whether the pool's nodes are Spot
 * @param multiNode whether its tasks run on several nodes (inter-node communication)
 * @param bootDigest the digest of what its nodes run at boot ({@link #bootDigest})
 * @param identity the user-assigned identity its nodes carry, if any
 */
public record PoolKey(String account, String vmSize, String image, String nodeAgentSku, boolean spot,
                      boolean multiNode, String bootDigest, Optional<String> identity) {
    /** Batch's longest pool id. */
    public static final int MAX_ID = 64;
    static final int HASH_DIGITS = 12;

    public PoolKey {
        Objects.requireNonNull(account, "account");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(nodeAgentSku, "nodeAgentSku");
        Objects.requireNonNull(bootDigest, "bootDigest");
        Objects.requireNonNull(identity, "identity");
    }

    /**
     * The key of a plan's pool.
     *
     * @param bootScript the POSIX-shell form of the plan's boot steps, if it has any
     * @param identity the pools' identity ({@code poolIdentity}), if configured
     */
    public static PoolKey of(String account, Plan plan, Optional<String> bootScript, Optional<String> identity) {
        if (plan.image().kind() == ImageRef.Kind.HOST) {
            throw new IllegalArgumentException("plan for " + plan.workload().name() + " has no VM image (host): a "
                    + "Batch pool needs a marketplace or gallery image");
        }
        String sku = plan.boot().batchNodeAgentSku().orElseThrow(() -> new IllegalArgumentException("plan for "
                + plan.workload().name() + " names no Batch node agent SKU for image " + plan.image().id()));
        return new PoolKey(account, plan.vmSize().name(), plan.image().id(), sku, plan.spot(), plan.nodes() > 1,
                bootDigest(bootScript, plan.workload().container().isPresent()), identity);
    }

    /**
     * The digest of what a pool's nodes are made with beyond the key's other fields: the boot script, and whether the
     * pool runs containers (a pool made without a container configuration cannot run a container task).
     */
    static String bootDigest(Optional<String> bootScript, boolean containers) {
        return sha256("boot:" + bootScript.orElse("") + "\u0000containers:" + containers);
    }

    /**
     * The pool's id: {@code prefix}, a readable head (VM size without {@code Standard_}, {@code -spot}, {@code -mn}),
     * and a hash of the whole key, at most {@value #MAX_ID} characters of Batch's id alphabet. Ids are compared without
     * case by Batch, so it is lower case.
     */
    public String poolId(String prefix) {
        String hash = sha256(canonical()).substring(0, HASH_DIGITS);
        String head = vmSize.toLowerCase(Locale.ROOT).replaceFirst("^standard_", "").replaceAll("[^a-z0-9]+", "-")
                + (spot ? "-spot" : "") + (multiNode ? "-mn" : "");
        int room = MAX_ID - prefix.length() - hash.length() - 1;
        if (room < 1) {
            throw new IllegalArgumentException("pool prefix '" + prefix + "' leaves no room for the pool id");
        }
        head = head.length() > room ? head.substring(0, room) : head;
        head = head.replaceAll("-+$", "");
        return (prefix + head + "-" + hash).toLowerCase(Locale.ROOT);
    }

    /**
     * The pool's job id: the pool's own id. Pools and jobs are separate id spaces in Batch, and one job per pool keeps
     * the number of active jobs at the number of pools in use.
     */
    public String jobId(String prefix) {
        return poolId(prefix);
    }

    /** Every field, one per line, as the hash reads it. */
    String canonical() {
        return String.join("\n", account, vmSize.toLowerCase(Locale.ROOT), image, nodeAgentSku,
                "spot=" + spot, "multiNode=" + multiNode, bootDigest, identity.orElse(""));
    }

    static String sha256(String text) {
        try {
            byte[] digest = MessageDigest.getInstance("SHA-256").digest(text.getBytes(StandardCharsets.UTF_8));
            return HexFormat.of().formatHex(digest);
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java platform has SHA-256", e);
        }
    }
}
