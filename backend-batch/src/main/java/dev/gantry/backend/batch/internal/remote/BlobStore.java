package dev.gantry.backend.batch.internal.remote;

/**
 * Put and delete of one blob with Gantry's Microsoft Entra ID credential: gantry-azure's
 * {@code dev.gantry.azure.storage.Blobs}, JDK-typed so that this module never sees its types where the module may be
 * missing ({@link AzureModule}).
 */
public interface BlobStore {
    /** Writes {@code content} to the blob {@code name} of the container, replacing one of that name; its URL. */
    String put(String containerUrl, String name, byte[] content);

    /** Deletes the blob; false when there was none. */
    boolean delete(String containerUrl, String name);
}
