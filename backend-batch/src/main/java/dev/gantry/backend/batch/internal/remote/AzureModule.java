package dev.gantry.backend.batch.internal.remote;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.batch.BatchManagement;
import dev.gantry.azure.cloud.CloudChoice;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.identity.AccessTokens;
import dev.gantry.azure.storage.Blobs;
import dev.gantry.backend.batch.internal.rest.AccessTokenSource;
import dev.gantry.backend.batch.internal.rest.BatchAuth;
import java.util.Map;
import java.util.function.Function;

/**
 * Whether the Azure module ({@code dev.gantry:gantry-azure}, which brings the Azure SDK) is on the class path. It is
 * an optional dependency of this backend, needed only for Microsoft Entra ID sign-in ({@code auth: entra}), the
 * secrets container and pools with an identity: a program with shared-key accounts and neither secrets nor
 * {@code poolIdentity} does without it, and one that needs it without it is told which artifact to add, never a
 * {@code NoClassDefFoundError}. Only {@link SignedIn} names the module's classes, and it is loaded once the module is
 * known to be there. The CLI ships the module.
 */
public final class AzureModule {
    /** The Maven coordinates to add, as a build file spells them. */
    public static final String ARTIFACT = "dev.gantry:gantry-azure";
    /** A class of the module and one of the SDK under it: both must load for the module to work. */
    private static final String[] PROBES = {"dev.gantry.azure.storage.Blobs",
            "com.azure.core.credential.TokenCredential"};

    private AzureModule() {
    }

    /**
     * Entra ID sign-in for a Batch account: tokens through the {@code DefaultAzureCredential} chain (made on the first
     * token asked for) for the Batch scope of the cloud gantry-azure reaches ({@code AZURE_CLOUD},
     * {@code ARM_CLOUD_METADATA_URL}; the public cloud's when neither is set).
     */
    public static BatchAuth.Entra entra(String neededFor) {
        require(neededFor);
        return new BatchAuth.Entra(SignedIn.tokens(), SignedIn.batchScope());
    }

    /** The secrets container's blobs, signed in as {@link #entra} signs in. */
    public static BlobStore blobs(String neededFor) {
        require(neededFor);
        return SignedIn.blobs();
    }

    /** Pools with an identity, through Resource Manager. */
    public static IdentityPools identityPools(String neededFor) {
        require(neededFor);
        return SignedIn.identityPools();
    }

    /** Resource Manager's Batch calls (account facts, VM sizes, pools with an identity) for gc and validate. */
    public static BatchManagement management(String neededFor) {
        require(neededFor);
        return SignedIn.management();
    }

    /** The blob calls themselves (listing the secrets container for gc's orphans). */
    public static Blobs blobCalls(String neededFor) {
        require(neededFor);
        return SignedIn.BLOBS;
    }

    /** The Compute usages of a subscription in a region, by lower-case name (validate's quota check). */
    public static Function<String, Map<String, ComputeUsage>> usages(String neededFor, String subscriptionId) {
        require(neededFor);
        return SignedIn.usages(subscriptionId);
    }

    /**
     * USAGE naming {@value #ARTIFACT} when the module is missing.
     *
     * @param neededFor the setting that needs it, e.g. "backends.batch.accounts[0].auth: entra"
     */
    static void require(String neededFor) {
        require(neededFor, AzureModule.class.getClassLoader());
    }

    static void require(String neededFor, ClassLoader loader) {
        if (!present(loader)) {
            throw new GantryException(ErrorCode.USAGE, neededFor + " needs the Azure module, and it is not on the "
                    + "class path: add the dependency " + ARTIFACT + " (the same version as gantry-backend-batch; "
                    + "the gantry BOM manages it) to your build, or use shared-key accounts without secrets and "
                    + "without poolIdentity");
        }
    }

    /** Whether the module and the Azure SDK can be loaded through {@code loader}. */
    static boolean present(ClassLoader loader) {
        for (String probe : PROBES) {
            try {
                Class.forName(probe, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }

    /** The one class here that names the module's types, loaded only once the module is known to be there. */
    private static final class SignedIn {
        private static final AccessTokens TOKENS = new AccessTokens();
        private static final Blobs BLOBS = new Blobs();

        static AccessTokenSource tokens() {
            return TOKENS::token;
        }

        static String batchScope() {
            return CloudChoice.current().batchScope();
        }

        static BlobStore blobs() {
            return AzureAdapters.blobStore(BLOBS);
        }

        static IdentityPools identityPools() {
            return AzureAdapters.identityPools(BatchManagement.azure());
        }

        static BatchManagement management() {
            return BatchManagement.azure();
        }

        static Function<String, Map<String, ComputeUsage>> usages(String subscriptionId) {
            return ResourceSkusClient.azure(subscriptionId)::usages;
        }
    }
}
