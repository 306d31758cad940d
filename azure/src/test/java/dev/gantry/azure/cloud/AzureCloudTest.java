package dev.gantry.azure.cloud;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.net.URI;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

class AzureCloudTest {
    @ParameterizedTest
    @CsvSource({
            "AzureCloud, https://management.azure.com/, https://login.microsoftonline.com/, "
                    + "https://management.core.windows.net/, https://batch.core.windows.net//.default",
            "AzureChinaCloud, https://management.chinacloudapi.cn/, https://login.chinacloudapi.cn/, "
                    + "https://management.core.chinacloudapi.cn/, https://batch.chinacloudapi.cn//.default",
            "AzureUSGovernment, https://management.usgovcloudapi.net/, https://login.microsoftonline.us/, "
                    + "https://management.core.usgovcloudapi.net/, https://batch.core.usgovcloudapi.net//.default"})
    void eachPresetHasTheAzureCliEndpointsAndBatchsDoubleSlashScope(String name, String resourceManager,
                                                                    String authority, String audience,
                                                                    String batchScope) {
        AzureCloud cloud = AzureCloud.preset(name).orElseThrow();
        assertEquals(name, cloud.name());
        assertEquals(URI.create(resourceManager), cloud.resourceManager());
        assertEquals(URI.create(authority), cloud.authorityHost());
        assertEquals(audience, cloud.managementAudience());
        assertEquals(batchScope, cloud.batchScope());
    }

    @ParameterizedTest
    @CsvSource({"azurecloud, AzureCloud", "AzurePublicCloud, AzureCloud", "AZURECHINACLOUD, AzureChinaCloud",
            "AzureChina, AzureChinaCloud", "azureusgovernment, AzureUSGovernment",
            "AzureUSGovernmentCloud, AzureUSGovernment", "' AzureCloud ', AzureCloud"})
    void presetsAreFoundByNameOrAliasIgnoringCase(String given, String name) {
        assertEquals(name, AzureCloud.preset(given).orElseThrow().name());
    }

    @Test
    void anUnknownNameIsNoPreset() {
        assertEquals(Optional.empty(), AzureCloud.preset("AzureGermanCloud"));
        assertEquals(List.of("AzureCloud", "AzureChinaCloud", "AzureUSGovernment"), AzureCloud.presetNames());
    }

    @Test
    void endpointsAndTheBatchResourceEndInASlashAndTheAudienceStaysAsGiven() {
        // The shape of the China entry of Resource Manager's metadata document: no trailing slashes.
        AzureCloud cloud = new AzureCloud("AzureChinaCloud", URI.create("https://management.chinacloudapi.cn"),
                URI.create("https://login.chinacloudapi.cn"), "https://management.core.chinacloudapi.cn",
                "https://batch.chinacloudapi.cn");
        assertEquals(URI.create("https://management.chinacloudapi.cn/"), cloud.resourceManager());
        assertEquals(URI.create("https://login.chinacloudapi.cn/"), cloud.authorityHost());
        assertEquals("https://management.core.chinacloudapi.cn", cloud.managementAudience());
        assertEquals("https://batch.chinacloudapi.cn//.default", cloud.batchScope());
        assertEquals(AzureCloud.CHINA.batchScope(), cloud.batchScope());
    }

    @Test
    void aBlankFieldIsRefused() {
        assertThrows(IllegalArgumentException.class, () -> new AzureCloud(" ", URI.create("https://arm/"),
                URI.create("https://login/"), "https://management/", "https://batch/"));
    }
}
