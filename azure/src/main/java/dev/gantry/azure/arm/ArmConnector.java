package dev.gantry.azure.arm;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.resourcemanager.compute.ComputeManager;
import java.util.Objects;

/**
 * Opens the Azure Compute SDK for one subscription. The {@link ComputeManager} also carries the network and resource
 * managers authenticated the same way, so one connection covers VMs, disks, NICs, public IPs and resource groups.
 */
@FunctionalInterface
public interface ArmConnector {
    ComputeManager connect(String subscriptionId);

    /** The public Azure cloud, signed in through the {@code DefaultAzureCredential} chain. */
    static ArmConnector defaultAzureCredential() {
        return of(new DefaultAzureCredentialBuilder().build(), AzureEnvironment.AZURE, null);
    }

    /**
     * A credential and cloud of the caller's choosing; {@code environment} decides the Resource Manager endpoint and
     * {@code httpClient} (null for the SDK's default) how it is reached.
     */
    static ArmConnector of(TokenCredential credential, AzureEnvironment environment, HttpClient httpClient) {
        Objects.requireNonNull(credential, "credential");
        Objects.requireNonNull(environment, "environment");
        return subscriptionId -> {
            ComputeManager.Configurable configurable = ComputeManager.configure();
            if (httpClient != null) {
                configurable = configurable.withHttpClient(httpClient);
            }
            return configurable.authenticate(credential, new AzureProfile(null, subscriptionId, environment));
        };
    }
}
