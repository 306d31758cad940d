package dev.gantry.azure.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.azure.core.management.AzureEnvironment;
import com.azure.core.util.Configuration;
import com.azure.identity.CredentialBuilderBase;
import com.azure.identity.DefaultAzureCredentialBuilder;
import com.azure.identity.implementation.IdentityClientOptions;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.fakes.ArmFake;
import dev.gantry.azure.fakes.FakeTokenIssuer;
import dev.gantry.azure.fakes.LocalHttps;
import java.lang.reflect.Field;
import java.net.URI;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AzureSignInTest {
    @Test
    void aPresetsEnvironmentIsTheSdksOwnForThatCloud() {
        assertEquals(AzureEnvironment.AZURE.getEndpoints(), AzureSignIn.environment(AzureCloud.PUBLIC).getEndpoints());
        assertEquals(AzureEnvironment.AZURE_CHINA.getEndpoints(),
                AzureSignIn.environment(AzureCloud.CHINA).getEndpoints());
        assertEquals(AzureEnvironment.AZURE_US_GOVERNMENT.getEndpoints(),
                AzureSignIn.environment(AzureCloud.US_GOVERNMENT).getEndpoints());
    }

    @Test
    void aCustomCloudsEnvironmentSendsResourceManagerCallsToItsEndpointWithTokensForItsAudience() throws Exception {
        String audience = "https://management.contoso.onmicrosoft.com/a1b2c3d4-0000-4000-8000-000000000001";
        try (ArmFake arm = new ArmFake()) {
            arm.usages("eastus", "[" + ArmFake.usage("cores", "Total Regional vCPUs", 4, 100) + "]");
            AzureCloud cloud = new AzureCloud("AzureStack", URI.create(arm.baseUrl()),
                    URI.create("https://login.local.azurestack.external/"), audience,
                    "https://batch.local.azurestack.external/");
            AzureEnvironment environment = AzureSignIn.environment(cloud);
            assertEquals(arm.baseUrl() + "/", environment.getResourceManagerEndpoint());
            assertEquals("https://login.local.azurestack.external/", environment.getActiveDirectoryEndpoint());
            assertEquals(audience, environment.getManagementEndpoint());

            FakeTokenIssuer issuer = new FakeTokenIssuer();
            ArmConnector connector = ArmConnector.of(issuer, environment, LocalHttps.trustingHttpClient());
            Map<String, ComputeUsage> usages = ResourceSkusClient.of(connector, ArmFake.SUBSCRIPTION)
                    .usages("eastus");

            assertEquals(4, usages.get("cores").currentValue());
            assertFalse(arm.requests("GET", "/usages").isEmpty(), "Resource Manager was the document's");
            assertEquals(List.of(audience + "/.default"), issuer.asked(), "the token is for the cloud's audience");
        }
    }

    @Test
    void theDefaultCredentialSignsInAtTheCloudsAuthorityHost() throws Exception {
        assertEquals("https://login.chinacloudapi.cn/", authorityHost(AzureSignIn.credentialBuilder(AzureCloud.CHINA)));
        AzureCloud stack = new AzureCloud("AzureStack", URI.create("https://management.local.azurestack.external"),
                URI.create("https://adfs.local.azurestack.external/adfs"), "https://management.adfs.local/",
                "https://batch.local/");
        assertEquals("https://adfs.local.azurestack.external/adfs/",
                authorityHost(AzureSignIn.credentialBuilder(stack)));
    }

    @Test
    void thePublicCloudLeavesTheAuthorityHostToTheSdkSoThatAzureAuthorityHostStillApplies() throws Exception {
        // The SDK reads AZURE_AUTHORITY_HOST from its global configuration (the environment) when a builder is made.
        Configuration global = Configuration.getGlobalConfiguration();
        String before = global.get(Configuration.PROPERTY_AZURE_AUTHORITY_HOST);
        try {
            global.put(Configuration.PROPERTY_AZURE_AUTHORITY_HOST, "https://login.example.test/");
            assertEquals("https://login.example.test/", authorityHost(AzureSignIn.credentialBuilder(AzureCloud.PUBLIC)));
            assertEquals("https://login.chinacloudapi.cn/", authorityHost(AzureSignIn.credentialBuilder(AzureCloud.CHINA)),
                    "a cloud other than the public one names its own host");
        } finally {
            if (before == null) {
                global.remove(Configuration.PROPERTY_AZURE_AUTHORITY_HOST);
            } else {
                global.put(Configuration.PROPERTY_AZURE_AUTHORITY_HOST, before);
            }
        }
    }

    /**
     * The builder keeps the authority host in its options and offers no getter; the field is read here so that the
     * test checks what the built credential will use, not what was passed.
     */
    private static String authorityHost(DefaultAzureCredentialBuilder builder) throws ReflectiveOperationException {
        Field options = CredentialBuilderBase.class.getDeclaredField("identityClientOptions");
        options.setAccessible(true);
        return ((IdentityClientOptions) options.get(builder)).getAuthorityHost();
    }
}
