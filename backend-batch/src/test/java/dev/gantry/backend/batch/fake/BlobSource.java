package dev.gantry.backend.batch.fake;

import dev.gantry.azure.fakes.BlobFake;
import java.io.IOException;

/**
 * Where a resource file's {@code httpUrl} is read from, on behalf of a pool's user-assigned identity (the blob fake
 * in tests). The fake calls it only when the pool has the identity the resource file names.
 */
public interface BlobSource {
    byte[] read(String httpUrl, String identityResourceId) throws IOException;

    /**
     * The blobs of the Blob service fake ({@code BlobFake}, path-style URLs {@code https://HOST/ACCOUNT/CONTAINER/NAME}),
     * read as a node reads them with its pool's identity: a URL of another service, a read without an identity (the
     * containers are private) or a blob that is not there fails, saying which.
     */
    static BlobSource of(BlobFake blobs) {
        String base = blobs.containerUrl("").replaceFirst("/$", "") + "/";
        return (url, identity) -> {
            if (!url.startsWith(base)) {
                throw new IOException(url + " is not a blob of the Blob service fake (" + base + "...)");
            }
            if (identity == null) {
                throw new IOException("PublicAccessNotPermitted: " + url + " is in a private container; name the"
                        + " pool's identity in the resource file's identityReference");
            }
            String[] containerAndName = url.substring(base.length()).replaceFirst("[?].*", "").split("/", 2);
            if (containerAndName.length < 2) {
                throw new IOException(url + " names no blob (CONTAINER/NAME)");
            }
            return blobs.content(containerAndName[0], containerAndName[1])
                    .orElseThrow(() -> new IOException("BlobNotFound: " + url));
        };
    }

    /** A source that has no blobs: every read fails. */
    static BlobSource none() {
        return (url, identity) -> {
            throw new IOException("no blob source is configured for the fake; cannot read " + url);
        };
    }
}
