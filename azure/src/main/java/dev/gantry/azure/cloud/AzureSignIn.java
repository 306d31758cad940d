package dev.gantry.azure.cloud;

import com.azure.core.credential.TokenCredential;
import com.azure.core.management.AzureEnvironment;
import com.azure.identity.DefaultAzureCredentialBuilder;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The one place Gantry's default Azure credential and the SDK's view of a cloud are made: every client that signs in
 * with the {@code DefaultAzureCredential} chain (Resource Manager, Entra tokens for Batch, Key Vault, blobs) gets it
 * here, for the cloud {@link CloudChoice#current()} chose. Tests inject their own credential and environment instead.
 */
public final class AzureSignIn {
    /** The SDK's names of the endpoints a cloud sets; every other endpoint is the SDK preset's (or the public's). */
    static final String RESOURCE_MANAGER = "resourceManagerEndpointUrl";
    static final String ACTIVE_DIRECTORY = "activeDirectoryEndpointUrl";
    static final String MANAGEMENT = "managementEndpointUrl";
    static final String ACTIVE_DIRECTORY_RESOURCE = "activeDirectoryResourceId";

    private AzureSignIn() {
    }

    /** The {@code DefaultAzureCredential} chain signing in at this process's cloud's Entra ID. */
    public static TokenCredential defaultCredential() {
        return defaultCredential(CloudChoice.current());
    }

    /**
     * The {@code DefaultAzureCredential} chain (environment, workload identity, managed identity, Azure CLI, ...)
     * signing in at the cloud's authority host.
     */
    public static TokenCredential defaultCredential(AzureCloud cloud) {
        return credentialBuilder(cloud).build();
    }

    /**
     * The public cloud leaves the authority host to the SDK, which takes {@code AZURE_AUTHORITY_HOST} when set (a user
     * of the SDK's own variable keeps what it chose); any other cloud names its own.
     */
    static DefaultAzureCredentialBuilder credentialBuilder(AzureCloud cloud) {
        DefaultAzureCredentialBuilder builder = new DefaultAzureCredentialBuilder();
        return cloud.equals(AzureCloud.PUBLIC) ? builder : builder.authorityHost(cloud.authorityHost().toString());
    }

    /**
     * The SDK's environment for the cloud: Resource Manager's endpoint, the authority, and the management audience
     * that the SDK's Resource Manager clients ask tokens for. A preset keeps the SDK's other endpoints of the same
     * cloud; a custom cloud those of the public cloud, which Gantry's clients do not use.
     */
    public static AzureEnvironment environment(AzureCloud cloud) {
        Map<String, String> endpoints = new HashMap<>(sdkPreset(cloud).getEndpoints());
        endpoints.put(RESOURCE_MANAGER, cloud.resourceManager().toString());
        endpoints.put(ACTIVE_DIRECTORY, cloud.authorityHost().toString());
        endpoints.put(MANAGEMENT, cloud.managementAudience());
        endpoints.put(ACTIVE_DIRECTORY_RESOURCE, cloud.managementAudience());
        return new AzureEnvironment(endpoints);
    }

    private static AzureEnvironment sdkPreset(AzureCloud cloud) {
        List<AzureEnvironment> sdk = List.of(AzureEnvironment.AZURE_CHINA, AzureEnvironment.AZURE_US_GOVERNMENT);
        return sdk.stream().filter(environment -> environment.getResourceManagerEndpoint()
                .equals(cloud.resourceManager().toString())).findFirst().orElse(AzureEnvironment.AZURE);
    }
}
