package dev.gantry.backend.batch.fake;

import java.io.IOException;

/**
 * Where a resource file's {@code httpUrl} is read from, on behalf of a pool's user-assigned identity (the blob fake
 * in tests). The fake calls it only when the pool has the identity the resource file names.
 */
public interface BlobSource {
    byte[] read(String httpUrl, String identityResourceId) throws IOException;

    /** A source that has no blobs: every read fails. */
    static BlobSource none() {
        return (url, identity) -> {
            throw new IOException("no blob source is configured for the fake; cannot read " + url);
        };
    }
}
