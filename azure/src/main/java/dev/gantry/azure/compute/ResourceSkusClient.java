package dev.gantry.azure.compute;

import com.azure.core.exception.ClientAuthenticationException;
import com.azure.core.exception.HttpResponseException;
import com.azure.core.util.Context;
import com.azure.identity.CredentialUnavailableException;
import com.azure.resourcemanager.compute.ComputeManager;
import com.azure.resourcemanager.compute.fluent.models.ResourceSkuInner;
import com.azure.resourcemanager.compute.fluent.models.UsageInner;
import com.azure.resourcemanager.compute.models.ResourceSkuCapabilities;
import com.azure.resourcemanager.compute.models.ResourceSkuLocationInfo;
import com.azure.resourcemanager.compute.models.ResourceSkuRestrictions;
import com.azure.resourcemanager.compute.models.ResourceSkuRestrictionsType;
import dev.gantry.api.ErrorCode;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.api.GantryException;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.TreeSet;

/**
 * VM sizes, capabilities, restrictions and vCPU usage of one subscription, through the Azure Compute SDK
 * ({@code ResourceSkus_List} and {@code Usage_List}).
 */
public final class ResourceSkusClient {
    private final ComputeManager compute;

    public ResourceSkusClient(ComputeManager compute) {
        this.compute = Objects.requireNonNull(compute, "compute");
    }

    /** The subscription's SKUs and usages, reached as {@code connector} reaches Resource Manager. */
    public static ResourceSkusClient of(ArmConnector connector, String subscriptionId) {
        return new ResourceSkusClient(connector.connect(subscriptionId));
    }

    /**
     * The cloud the environment chooses, with {@code DefaultAzureCredential} (environment, managed identity, Azure
     * CLI, ...): see {@link ArmConnector#defaultAzureCredential}.
     */
    public static ResourceSkusClient azure(String subscriptionId) {
        return of(ArmConnector.defaultAzureCredential(), subscriptionId);
    }

    /** Every virtual-machine SKU offered in the regions, one offer per SKU and region. */
    public List<SkuOffer> vmSkus(Collection<String> regions) {
        List<SkuOffer> offers = new ArrayList<>();
        for (String region : new LinkedHashSet<>(regions)) {
            try {
                for (ResourceSkuInner sku : compute.serviceClient().getResourceSkus()
                        .list("location eq '" + region.replace("'", "''") + "'", null, Context.NONE)) {
                    if (!"virtualMachines".equals(sku.resourceType()) || sku.name() == null) {
                        continue;
                    }
                    List<String> locations = sku.locations() == null ? List.of() : sku.locations();
                    if (!locations.isEmpty() && locations.stream().noneMatch(region::equalsIgnoreCase)) {
                        continue;
                    }
                    offers.add(offer(sku, region));
                }
            } catch (RuntimeException e) {
                throw remote("Resource SKUs for region " + region, e);
            }
        }
        return offers;
    }

    /**
     * The subscription's compute usages in a region by quota name in lower case ({@code cores},
     * {@code lowprioritycores}, {@code standarddv5family}); usages without a name are skipped.
     */
    public Map<String, ComputeUsage> usages(String region) {
        Map<String, ComputeUsage> usages = new HashMap<>();
        try {
            // The SDK's iterable follows nextLink to the last page.
            for (UsageInner usage : compute.serviceClient().getUsages().list(region, Context.NONE)) {
                if (usage.name() != null && usage.name().value() != null && !usage.name().value().isEmpty()) {
                    String name = usage.name().value();
                    usages.put(name.toLowerCase(Locale.ROOT), new ComputeUsage(name,
                            usage.name().localizedValue() == null ? "" : usage.name().localizedValue(),
                            usage.currentValue(), usage.limit()));
                }
            }
        } catch (RuntimeException e) {
            throw remote("compute usages for region " + region, e);
        }
        return usages;
    }

    static SkuOffer offer(ResourceSkuInner sku, String region) {
        Map<String, String> capabilities = new HashMap<>();
        if (sku.capabilities() != null) {
            for (ResourceSkuCapabilities capability : sku.capabilities()) {
                capabilities.put(capability.name(), capability.value());
            }
        }
        Set<String> generations = new LinkedHashSet<>();
        String hyperV = capabilities.get("HyperVGenerations");
        if (hyperV != null) {
            for (String generation : hyperV.split(",")) {
                if (!generation.isBlank()) {
                    generations.add(generation.trim().toUpperCase(Locale.ROOT));
                }
            }
        }
        String rdma = capabilities.get("RdmaEnabled");
        return new SkuOffer(sku.name(), sku.family() == null ? "" : sku.family(), region,
                integer(capabilities.get("vCPUs")), integer(capabilities.get("vCPUsAvailable")),
                decimal(capabilities.get("MemoryGB")), integer(capabilities.get("GPUs")), generations,
                rdma == null ? Optional.empty() : Optional.of(Boolean.parseBoolean(rdma)),
                Optional.ofNullable(capabilities.get("CpuArchitectureType")), restriction(sku, region),
                zones(sku, region));
    }

    /**
     * The region's zones where the subscription can allocate the SKU: its {@code locationInfo} zones for the region
     * less every zone a restriction of type {@code Zone} for the region lists in {@code restrictionInfo.zones}
     * ("ResourceSkuRestrictionInfo: zones, list of availability zones where the SKU is restricted",
     * https://learn.microsoft.com/javascript/api/@azure-rest/arm-compute/resourceskurestrictioninfooutput); sorted.
     */
    static List<String> zones(ResourceSkuInner sku, String region) {
        TreeSet<String> zones = new TreeSet<>();
        if (sku.locationInfo() != null) {
            for (ResourceSkuLocationInfo info : sku.locationInfo()) {
                if (info.location() != null && info.location().equalsIgnoreCase(region) && info.zones() != null) {
                    zones.addAll(info.zones());
                }
            }
        }
        if (sku.restrictions() != null) {
            for (ResourceSkuRestrictions restriction : sku.restrictions()) {
                boolean here = restriction.values() == null || restriction.values().isEmpty()
                        || restriction.values().stream().anyMatch(region::equalsIgnoreCase);
                if (ResourceSkuRestrictionsType.ZONE.equals(restriction.type()) && here
                        && restriction.restrictionInfo() != null && restriction.restrictionInfo().zones() != null) {
                    zones.removeAll(restriction.restrictionInfo().zones());
                }
            }
        }
        return List.copyOf(zones);
    }

    /**
     * A location restriction covering the region makes the size unusable there; a zone restriction only removes
     * some zones and leaves the size usable.
     */
    private static Optional<String> restriction(ResourceSkuInner sku, String region) {
        if (sku.restrictions() == null) {
            return Optional.empty();
        }
        for (ResourceSkuRestrictions restriction : sku.restrictions()) {
            if (!ResourceSkuRestrictionsType.LOCATION.equals(restriction.type())) {
                continue;
            }
            List<String> values = restriction.values() == null ? List.of() : restriction.values();
            if (values.isEmpty() || values.stream().anyMatch(region::equalsIgnoreCase)) {
                return Optional.of(restriction.reasonCode() == null ? "Restricted"
                        : restriction.reasonCode().toString());
            }
        }
        return Optional.empty();
    }

    private static OptionalInt integer(String value) {
        if (value == null) {
            return OptionalInt.empty();
        }
        try {
            return OptionalInt.of((int) Math.round(Double.parseDouble(value.trim())));
        } catch (NumberFormatException e) {
            return OptionalInt.empty();
        }
    }

    private static OptionalDouble decimal(String value) {
        if (value == null) {
            return OptionalDouble.empty();
        }
        try {
            return OptionalDouble.of(Double.parseDouble(value.trim()));
        } catch (NumberFormatException e) {
            return OptionalDouble.empty();
        }
    }

    private static GantryException remote(String what, RuntimeException e) {
        String message = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
        boolean auth = e instanceof ClientAuthenticationException || e instanceof CredentialUnavailableException
                || (e instanceof HttpResponseException && ((HttpResponseException) e).getResponse() != null
                && (((HttpResponseException) e).getResponse().getStatusCode() == 401
                || ((HttpResponseException) e).getResponse().getStatusCode() == 403));
        return new GantryException(auth ? ErrorCode.AUTH_FAILED : ErrorCode.REMOTE_ERROR,
                "cannot read " + what + " from Azure Resource Manager: " + message
                        + (auth ? "; sign in (az login) or set AZURE_CLIENT_ID/AZURE_TENANT_ID/AZURE_CLIENT_SECRET,"
                        + " and check the identity's role on the subscription" : ""), e);
    }
}
