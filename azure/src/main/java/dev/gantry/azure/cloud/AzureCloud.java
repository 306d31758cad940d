package dev.gantry.azure.cloud;

import java.net.URI;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * One Azure cloud, as far as Gantry reaches it: where Resource Manager answers, where Microsoft Entra ID signs in, and
 * the resources tokens are asked for. JDK-typed; {@link AzureSignIn} turns it into the Azure SDK's environment and
 * credential. The presets are the Azure CLI's clouds of the same names ({@code az cloud show}); a custom cloud (Azure
 * Stack Hub, an air-gapped region, a local fake) comes from Resource Manager's metadata document
 * ({@link CloudChoice}).
 *
 * @param name the cloud's name, e.g. {@code AzureCloud}
 * @param resourceManager Resource Manager's endpoint, ending in {@code /}
 * @param authorityHost the Microsoft Entra ID sign-in endpoint ({@code authentication.loginEndpoint}), ending in
 *     {@code /}
 * @param managementAudience the resource a Resource Manager token is for ({@code authentication.audiences[0]}), as
 *     given: an audience is an identifier, compared exactly, so no slash is added or removed
 * @param batchResource Batch's resource id ({@code batch}), ending in {@code /} as Batch documents it
 */
public record AzureCloud(String name, URI resourceManager, URI authorityHost, String managementAudience,
                         String batchResource) {
    /** The public cloud: the one Gantry reaches when nothing chooses another. */
    public static final AzureCloud PUBLIC = new AzureCloud("AzureCloud", URI.create("https://management.azure.com/"),
            URI.create("https://login.microsoftonline.com/"), "https://management.core.windows.net/",
            "https://batch.core.windows.net/");
    /** Azure operated by 21Vianet (China). */
    public static final AzureCloud CHINA = new AzureCloud("AzureChinaCloud",
            URI.create("https://management.chinacloudapi.cn/"), URI.create("https://login.chinacloudapi.cn/"),
            "https://management.core.chinacloudapi.cn/", "https://batch.chinacloudapi.cn/");
    /** Azure Government (US). */
    public static final AzureCloud US_GOVERNMENT = new AzureCloud("AzureUSGovernment",
            URI.create("https://management.usgovcloudapi.net/"), URI.create("https://login.microsoftonline.us/"),
            "https://management.core.usgovcloudapi.net/", "https://batch.core.usgovcloudapi.net/");

    private static final List<AzureCloud> PRESETS = List.of(PUBLIC, CHINA, US_GOVERNMENT);
    /**
     * Other spellings of the presets' names in use elsewhere: {@code AzurePublicCloud} and
     * {@code AzureUSGovernmentCloud} of go-autorest (an AKS node's {@code azure.json}), {@code AzureChina} of the
     * Azure SDK's own cloud names.
     */
    private static final Map<String, AzureCloud> ALIASES = Map.of("azurepubliccloud", PUBLIC, "azurechina", CHINA,
            "azureusgovernmentcloud", US_GOVERNMENT);

    public AzureCloud {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resourceManager, "resourceManager");
        Objects.requireNonNull(authorityHost, "authorityHost");
        Objects.requireNonNull(managementAudience, "managementAudience");
        Objects.requireNonNull(batchResource, "batchResource");
        if (name.isBlank() || managementAudience.isBlank() || batchResource.isBlank()) {
            throw new IllegalArgumentException("a cloud needs a name, a management audience and a Batch resource");
        }
        resourceManager = endingInSlash(resourceManager);
        authorityHost = endingInSlash(authorityHost);
        batchResource = batchResource.endsWith("/") ? batchResource : batchResource + "/";
    }

    /**
     * The scope of a Batch token: Batch's resource id followed by {@code /.default}. The double slash is Batch's own
     * ({@code https://batch.core.windows.net//.default}): its resource id ends in a slash.
     */
    public String batchScope() {
        return batchResource + "/.default";
    }

    /** The presets' names, in the order an error lists them. */
    public static List<String> presetNames() {
        return PRESETS.stream().map(AzureCloud::name).toList();
    }

    /** The preset of that name or alias, ignoring case; empty for any other name. */
    public static Optional<AzureCloud> preset(String name) {
        String wanted = name.strip().toLowerCase(Locale.ROOT);
        return PRESETS.stream().filter(cloud -> cloud.name.toLowerCase(Locale.ROOT).equals(wanted)).findFirst()
                .or(() -> Optional.ofNullable(ALIASES.get(wanted)));
    }

    private static URI endingInSlash(URI uri) {
        String text = uri.toString();
        return text.endsWith("/") ? uri : URI.create(text + "/");
    }
}
