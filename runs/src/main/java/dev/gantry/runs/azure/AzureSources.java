package dev.gantry.runs.azure;

import dev.gantry.api.Architecture;
import dev.gantry.azure.compute.ComputeUsage;
import dev.gantry.azure.compute.ResourceSkusClient;
import dev.gantry.azure.compute.SkuOffer;
import dev.gantry.azure.prices.RetailPrice;
import dev.gantry.azure.prices.RetailPricesClient;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.refresh.CatalogRefresher;
import dev.gantry.core.catalog.refresh.PriceSource;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.catalog.refresh.SkuSource;
import dev.gantry.core.catalog.refresh.VmPrice;
import dev.gantry.core.quota.QuotaChecker;
import dev.gantry.core.quota.QuotaSource;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.azure.arm.ArmConnector;
import java.time.Clock;
import java.util.Collection;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.IntConsumer;
import java.util.stream.Collectors;

/**
 * The azure module's clients as core's ports: Retail Prices rows as {@link VmPrice}s, Resource SKUs as
 * {@link SizeOffer}s, Compute usages as {@link QuotaUsage}s. Core decides over them (which price a row gets, the
 * catalog merge, the quota arithmetic); here Azure's records are only mapped, and the factories wire the production
 * clients. Loaded only after {@link AzureModule#require}, since it names the module's classes.
 */
public final class AzureSources {
    /** The name the refresh's progress and provenance give the Retail Prices API. */
    static final String RETAIL_PRICES = "Azure Retail Prices API";

    private AzureSources() {
    }

    /**
     * The production refresher: the public Retail Prices API, the Resource SKUs API with
     * {@code DefaultAzureCredential} when a subscription is given (the catalog records its zones and its id), the
     * embedded snapshot as base, the UTC clock.
     */
    public static CatalogRefresher refresher(Optional<String> subscriptionId) {
        return new CatalogRefresher(prices(RetailPricesClient.publicApi()),
                subscriptionId.map(id -> SkuSource.of(id, skus(ResourceSkusClient.azure(id)))),
                CatalogLoader.embedded(), Clock.systemUTC());
    }

    /** The subscription's quotas on Azure, read with {@code DefaultAzureCredential}. */
    public static QuotaChecker quotaChecker(String subscriptionId) {
        ResourceSkusClient client = ResourceSkusClient.azure(subscriptionId);
        return new QuotaChecker(skus(client), quotas(client));
    }

    /**
     * What the subscription allows plans to use, read through {@code connector} as the advisor's search needs it:
     * Resource SKUs once per region, Compute usages kept {@link SubscriptionCapacity#USAGES_KEPT}.
     */
    public static SubscriptionCapacity capacity(ArmConnector connector, String subscriptionId, Clock clock) {
        ResourceSkusClient client = ResourceSkusClient.of(connector, subscriptionId);
        return new SubscriptionCapacity(subscriptionId, skus(client), quotas(client), clock);
    }

    /** The Retail Prices API through this client: its Linux VM hourly rows, its pages reported as they are read. */
    public static PriceSource prices(RetailPricesClient client) {
        return new PriceSource() {
            @Override
            public String name() {
                return RETAIL_PRICES;
            }

            @Override
            public String selection() {
                return RetailPricesClient.SELECTION;
            }

            @Override
            public List<VmPrice> vmPrices(Collection<String> regions, IntConsumer pageFetched) {
                return client.vmPrices(regions, pageFetched).stream().filter(RetailPrice::linuxVmHourly)
                        .map(AzureSources::price).toList();
            }
        };
    }

    /** The sizes the Resource SKUs API offers the client's subscription. */
    public static SkuSource skus(ResourceSkusClient client) {
        return regions -> client.vmSkus(regions).stream().map(AzureSources::offer).toList();
    }

    /** The Compute usages of the client's subscription, by quota name in lower case as the client keys them. */
    public static QuotaSource quotas(ResourceSkusClient client) {
        return region -> client.usages(region).entrySet().stream()
                .collect(Collectors.toMap(Map.Entry::getKey, entry -> usage(entry.getValue())));
    }

    /** A Linux VM hourly row (the caller keeps only those) as the price core chooses among. */
    static VmPrice price(RetailPrice row) {
        return new VmPrice(row.armSkuName(), row.armRegionName(), row.productName(), row.spot(), row.retailPrice(),
                row.effectiveStartDate(), row.primaryMeterRegion());
    }

    /** A SKU as core's size offer; Azure spells the architectures {@code x64} and {@code Arm64}. */
    static SizeOffer offer(SkuOffer sku) {
        return new SizeOffer(sku.name(), sku.quotaFamily(), sku.region(), sku.vcpus(), sku.vcpusAvailable(),
                sku.memoryGib(), sku.gpus(), sku.hyperVGenerations(), sku.rdma(),
                sku.cpuArchitecture().map(arch -> arch.equalsIgnoreCase("Arm64") ? Architecture.ARM64
                        : Architecture.X64), sku.restriction(), sku.zones());
    }

    static QuotaUsage usage(ComputeUsage usage) {
        return new QuotaUsage(usage.name(), usage.localizedName(), usage.currentValue(), usage.limit());
    }
}
