package dev.gantry.runs.azure;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.SecretRef;
import dev.gantry.api.backend.Secret;
import dev.gantry.core.secrets.SecretStore;

/**
 * Whether the Azure module ({@code dev.gantry:gantry-azure}, which brings the Azure SDK) is on the class path. It is
 * an optional dependency of the runs module: a program that plans and runs on the manual or cyclecloud backend does
 * without its 49 jars, and adding the one artifact brings live catalog refresh, quota checks, {@code vm up} and Key
 * Vault secrets. Each of those asks {@link #require} first, so that a program without it gets an error naming the
 * artifact to add instead of a {@code NoClassDefFoundError}. The CLI ships it, so its users never see the error.
 */
public final class AzureModule {
    /** The Maven coordinates to add, as a build file spells them. */
    public static final String ARTIFACT = "dev.gantry:gantry-azure";
    /** A class of the module and one of the SDK under it: both must load for the module to work. */
    private static final String[] PROBES = {"dev.gantry.azure.arm.ArmConnector", "com.azure.core.credential.TokenCredential"};

    private AzureModule() {
    }

    /** Whether the module and the Azure SDK can be loaded. */
    public static boolean present() {
        ClassLoader loader = AzureModule.class.getClassLoader();
        for (String probe : PROBES) {
            try {
                Class.forName(probe, false, loader);
            } catch (ClassNotFoundException | LinkageError e) {
                return false;
            }
        }
        return true;
    }

    /**
     * Fails with USAGE, naming the artifact and what needs it, when the module is missing.
     *
     * @param feature what was asked for, e.g. {@code "live catalog refresh"}
     */
    public static void require(String feature) {
        if (!present()) {
            throw new GantryException(ErrorCode.USAGE, missing(feature));
        }
    }

    /**
     * Key Vault references resolved by the module's client, made on the first {@code keyvault:} reference: making it
     * earlier loads the Azure SDK, whose signed jars cost about 0.1 s of start-up, on every command that reads no
     * secret. Without the module, such a reference fails with SECRET_UNRESOLVED naming the artifact; {@code env:} and
     * {@code file:} references never come here.
     */
    public static SecretStore keyVault() {
        return new SecretStore() {
            private SecretStore client;

            @Override
            public synchronized Secret fetch(SecretRef ref) {
                if (client == null) {
                    if (!present()) {
                        throw new GantryException(ErrorCode.SECRET_UNRESOLVED, "secret " + ref + ": "
                                + missing("resolving Key Vault references"));
                    }
                    client = KeyVaultStore.create();
                }
                return client.fetch(ref);
            }
        };
    }

    private static String missing(String feature) {
        return feature + " needs the Azure module, which is not on the class path: add the dependency " + ARTIFACT
                + " (the same version as gantry-runs; the gantry BOM manages it) to your build";
    }

    /** The one class that names the module's Key Vault client, loaded only once the module is known to be there. */
    private static final class KeyVaultStore {
        static SecretStore create() {
            return new dev.gantry.azure.keyvault.KeyVaultSecrets()::fetch;
        }
    }
}
