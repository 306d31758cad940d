package dev.gantry.core.violating;

import dev.gantry.azure.prices.RetailPricesClient;

/** Violates coreOnlyDecides: core calling the Azure module instead of declaring a port it implements. */
final class CoreUsingTheAzureModule {
    RetailPricesClient prices;
}
