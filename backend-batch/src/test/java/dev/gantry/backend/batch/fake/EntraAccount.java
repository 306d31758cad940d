package dev.gantry.backend.batch.fake;

import dev.gantry.azure.batch.PoolAllocationMode;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.BatchAccountModel;
import dev.gantry.azure.fakes.LocalHttps;
import dev.gantry.azure.fakes.ManagedIdentityFake;
import java.nio.file.Path;
import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a Batch fake in Microsoft Entra ID mode has around it, for a process that cannot be handed fakes (the
 * {@code gantry} CLI): a Resource Manager fake ({@link ArmFake}) holding the account in user-subscription mode
 * (shared with the Batch fake, so pools made through either door are one), the sizes offered to Batch and the
 * region's usages; a managed identity endpoint ({@link ManagedIdentityFake}) whose tokens the Batch fake and Resource
 * Manager's take; and a PKCS12 trust store holding only the fakes' certificate.
 */
final class EntraAccount implements AutoCloseable {
    static final String RESOURCE_GROUP = "gantry-test";

    private final ArmFake arm;
    private final ManagedIdentityFake identity;
    private final BatchAccountModel account;
    private final Path trustStore;
    private final String trustStorePassword;

    private EntraAccount(ArmFake arm, ManagedIdentityFake identity, BatchAccountModel account, Path trustStore,
            String trustStorePassword) {
        this.arm = arm;
        this.identity = identity;
        this.account = account;
        this.trustStore = trustStore;
        this.trustStorePassword = trustStorePassword;
    }

    /**
     * Starts Resource Manager's fake and the identity endpoint around {@code fake} (an HTTPS, Entra-only fake) and
     * writes the trust store (replacing the file).
     */
    static EntraAccount start(BatchFake fake, String region, List<OfferedSize> sizes, Path trustStore) {
        ArmFake arm;
        try {
            arm = new ArmFake();
        } catch (Exception e) {
            throw new IllegalStateException("cannot start the Resource Manager fake", e);
        }
        BatchAccountModel account = arm.batchAccount(RESOURCE_GROUP, fake.accountName(), region,
                PoolAllocationMode.USER_SUBSCRIPTION);
        fake.shareWith(account);
        OfferedSize.offer(arm, region, sizes);
        byte[] random = new byte[16];
        new SecureRandom().nextBytes(random);
        String password = HexFormat.of().formatHex(random);
        LocalHttps.writeTrustStore(trustStore, password.toCharArray());
        return new EntraAccount(arm, new ManagedIdentityFake(), account, trustStore.toAbsolutePath(), password);
    }

    /** The env file's Entra entries, in order. */
    Map<String, String> env() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("BATCH_REGION", account.region());
        env.put("BATCH_RESOURCE_ID", account.resourceId());
        env.put("BATCH_ARM_METADATA_URL", arm.metadataUrl());
        env.put("BATCH_IDENTITY_ENDPOINT", identity.endpoint());
        env.put("BATCH_IDENTITY_HEADER", identity.secret());
        env.put("BATCH_TRUSTSTORE", trustStore.toString());
        env.put("BATCH_TRUSTSTORE_PASSWORD", trustStorePassword);
        return env;
    }

    ArmFake arm() {
        return arm;
    }

    ManagedIdentityFake identity() {
        return identity;
    }

    @Override
    public void close() {
        identity.close();
        arm.close();
    }
}
