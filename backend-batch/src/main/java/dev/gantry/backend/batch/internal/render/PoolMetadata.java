package dev.gantry.backend.batch.internal.render;

import com.microsoft.azure.batch.protocol.models.MetadataItem;
import java.util.List;
import java.util.Optional;

/**
 * The metadata that marks a pool and its job as Gantry's: only those are ever deleted, and a pool met again after a
 * lost reply is adopted only when its digest is the one wanted.
 */
public final class PoolMetadata {
    public static final String OWNER = "gantry.owner";
    public static final String OWNER_VALUE = "gantry";
    public static final String DIGEST = "gantry.digest";

    private PoolMetadata() {
    }

    public static List<MetadataItem> of(PoolKey key) {
        return List.of(new MetadataItem().withName(OWNER).withValue(OWNER_VALUE),
                new MetadataItem().withName(DIGEST).withValue(digest(key)));
    }

    /** The digest a pool of this key carries: of the whole key, so any difference is a different pool. */
    public static String digest(PoolKey key) {
        return PoolKey.sha256(key.canonical());
    }

    /** Whether metadata read back from Batch marks the item as Gantry's. */
    public static boolean isGantrys(List<MetadataItem> metadata) {
        return value(metadata, OWNER).filter(OWNER_VALUE::equals).isPresent();
    }

    /** The digest recorded on a pool or job, if any. */
    public static Optional<String> digestOf(List<MetadataItem> metadata) {
        return value(metadata, DIGEST);
    }

    private static Optional<String> value(List<MetadataItem> metadata, String name) {
        return metadata == null ? Optional.empty() : metadata.stream().filter(item -> name.equals(item.name()))
                .map(MetadataItem::value).findFirst();
    }
}
