package dev.gantry.azure.vm;

import dev.gantry.api.ImageRef;
import java.math.BigDecimal;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * Everything Resource Manager needs to create one Linux VM, decided by the caller: names, size, image, login, boot
 * script, capacity and tags. {@link ArmTemplates} turns it into request bodies.
 *
 * @param resourceGroup the VM's resource group
 * @param region the region
 * @param name the VM's name (also its computer name)
 * @param vmSize e.g. {@code Standard_NC24ads_A100_v4}
 * @param image a marketplace URN or a gallery image ID ({@link ImageRef.Kind#HOST} cannot be created)
 * @param adminUser the login user
 * @param sshPublicKey the login user's OpenSSH public key; password login stays off
 * @param cloudInit the boot script, sent base64-encoded as custom data
 * @param spot Spot capacity, or empty for regular
 * @param osDiskName the managed OS disk's name
 * @param tags the tags of the VM (and of its NIC and public IP)
 * @param availabilitySetId the availability set the VM joins at creation (Azure adds a VM to one only then), or
 *     empty
 * @param zone the availability zone the VM is placed in, or empty for a regional VM (a VM in an availability set
 *     has none)
 */
public record VmBlueprint(String resourceGroup, String region, String name, String vmSize, ImageRef image,
                          String adminUser, String sshPublicKey, String cloudInit, Optional<Spot> spot,
                          String osDiskName, Map<String, String> tags, Optional<String> availabilitySetId,
                          Optional<String> zone) {
    public VmBlueprint {
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(image, "image");
        Objects.requireNonNull(adminUser, "adminUser");
        Objects.requireNonNull(sshPublicKey, "sshPublicKey");
        Objects.requireNonNull(cloudInit, "cloudInit");
        Objects.requireNonNull(spot, "spot");
        Objects.requireNonNull(osDiskName, "osDiskName");
        tags = Map.copyOf(tags);
        Objects.requireNonNull(availabilitySetId, "availabilitySetId");
        Objects.requireNonNull(zone, "zone");
    }

    /**
     * Spot capacity terms.
     *
     * @param deleteOnEviction delete the VM when Azure evicts it (else deallocate it)
     * @param maxPricePerHour the most to pay per hour in USD, {@code -1} for up to the on-demand price
     */
    public record Spot(boolean deleteOnEviction, BigDecimal maxPricePerHour) {
        public Spot {
            Objects.requireNonNull(maxPricePerHour, "maxPricePerHour");
        }
    }
}
