package dev.gantry.azure.arm;

import com.azure.core.credential.TokenCredential;
import com.azure.core.http.HttpClient;
import com.azure.core.management.AzureEnvironment;
import com.azure.core.management.profile.AzureProfile;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.containerservice.ContainerServiceManager;
import com.azure.resourcemanager.resources.fluentcore.arm.AzureConfigurable;
import dev.gantry.azure.cloud.AzureCloud;
import dev.gantry.azure.cloud.AzureSignIn;
import dev.gantry.azure.cloud.CloudChoice;
import java.util.Objects;

/**
 * Opens the Azure SDK's managers for one subscription, every one signed in the same way (one credential, one cloud,
 * one HTTP client). The {@link ComputeManager} also carries the network and resource managers, so one connection
 * covers VMs, disks, NICs, public IPs and resource groups; {@link #containerService} reaches AKS clusters and their
 * node pools.
 */
@FunctionalInterface
public interface ArmConnector {
    ComputeManager connect(String subscriptionId);

    /**
     * The AKS manager, signed in as {@link #connect} is. Only connectors made by {@link #of} have one: a connector
     * written as a lambda (a test's stand-in for Compute) reaches Compute alone.
     */
    default ContainerServiceManager containerService(String subscriptionId) {
        throw new UnsupportedOperationException("this ArmConnector reaches Azure Compute only; make one with "
                + "ArmConnector.of(credential, environment, httpClient) to reach AKS");
    }

    /**
     * The cloud the environment chooses ({@link CloudChoice}: the public one unless {@code AZURE_CLOUD} or
     * {@code ARM_CLOUD_METADATA_URL} says otherwise), signed in through the {@code DefaultAzureCredential} chain.
     */
    static ArmConnector defaultAzureCredential() {
        AzureCloud cloud = CloudChoice.current();
        return of(AzureSignIn.defaultCredential(cloud), AzureSignIn.environment(cloud), null);
    }

    /**
     * A credential and cloud of the caller's choosing; {@code environment} decides the Resource Manager endpoint and
     * {@code httpClient} (null for the SDK's default) how it is reached.
     */
    static ArmConnector of(TokenCredential credential, AzureEnvironment environment, HttpClient httpClient) {
        return new SignedIn(credential, environment, httpClient);
    }

    /** The one way every manager is signed in. */
    record SignedIn(TokenCredential credential, AzureEnvironment environment, HttpClient httpClient)
            implements ArmConnector {
        public SignedIn {
            Objects.requireNonNull(credential, "credential");
            Objects.requireNonNull(environment, "environment");
        }

        @Override
        public ComputeManager connect(String subscriptionId) {
            return reachedThroughClient(ComputeManager.configure()).authenticate(credential, profile(subscriptionId));
        }

        @Override
        public ContainerServiceManager containerService(String subscriptionId) {
            return reachedThroughClient(ContainerServiceManager.configure())
                    .authenticate(credential, profile(subscriptionId));
        }

        private AzureProfile profile(String subscriptionId) {
            return new AzureProfile(null, subscriptionId, environment);
        }

        private <T extends AzureConfigurable<T>> T reachedThroughClient(T configurable) {
            return httpClient == null ? configurable : configurable.withHttpClient(httpClient);
        }
    }
}
