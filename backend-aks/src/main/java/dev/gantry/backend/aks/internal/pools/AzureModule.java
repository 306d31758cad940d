package dev.gantry.backend.aks.internal.pools;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.azure.aks.AgentPools;
import dev.gantry.backend.aks.internal.AksSettings;

/**
 * Whether the Azure module ({@code dev.gantry:gantry-azure}, which brings the Azure SDK) is on the class path. It is
 * an optional dependency of this backend, needed only when {@code backends.aks.azure.*} asks Gantry to create node
 * pools: a program that uses existing pools does without it, and one that sets {@code azure.*} without it is told
 * at create which artifact to add, never a {@code NoClassDefFoundError}. Only {@link SignedIn} names a class of the
 * module, and it is loaded once the module is known to be there. The CLI ships the module.
 */
public final class AzureModule {
    /** The Maven coordinates to add, as a build file spells them. */
    public static final String ARTIFACT = "dev.gantry:gantry-azure";
    /** A class of the module and one of the SDK under it: both must load for the module to work. */
    private static final String[] PROBES = {"dev.gantry.azure.aks.AgentPools",
            "com.azure.core.credential.TokenCredential"};

    private AzureModule() {
    }

    /**
     * The pool keeper the settings ask for: {@link PoolKeeper#NONE} without {@code azure.*}; else one signed in
     * through the {@code DefaultAzureCredential} chain on its first use (nothing is contacted here). USAGE naming
     * {@value #ARTIFACT} when {@code azure.*} is set and the module is missing.
     */
    public static PoolKeeper keeper(AksSettings settings, System.Logger logger) {
        if (settings.azure().isEmpty()) {
            return PoolKeeper.NONE;
        }
        if (!present(AzureModule.class.getClassLoader())) {
            throw new GantryException(ErrorCode.USAGE, "backends.aks.azure.* asks Gantry to create node pools, "
                    + "which needs the Azure module, and it is not on the class path: add the dependency "
                    + ARTIFACT + " (the same version as gantry-backend-aks; the gantry BOM manages it) to your "
                    + "build, or remove the backends.aks.azure settings to use existing node pools only");
        }
        return SignedIn.keeper(settings, logger);
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
        static PoolKeeper keeper(AksSettings settings, System.Logger logger) {
            String subscription = settings.azure().orElseThrow().subscription();
            return new AzurePoolKeeper(settings, () -> AgentPools.defaultAzureCredential(subscription), logger);
        }
    }
}
