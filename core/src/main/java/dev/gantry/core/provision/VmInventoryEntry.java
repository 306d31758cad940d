package dev.gantry.core.provision;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One VM Gantry provisioned, as the inventory keeps it: enough to reach it over SSH (the manual backend's hosts) and
 * to delete it with everything it owns.
 *
 * @param name the VM name, unique within the inventory
 * @param resourceId the VM's Azure resource ID
 * @param resourceGroup the resource group the VM and its disk, NIC and public IP live in
 * @param region the Azure region
 * @param vmSize the VM size name
 * @param adminUser the Linux account the SSH key was installed for
 * @param privateIp the private address in the virtual network
 * @param publicIp the public address, when one was asked for
 * @param spot whether the VM runs on spot capacity (and can be evicted)
 * @param createdAt when Gantry created (or first recorded) the VM
 * @param nicId the network interface's resource ID
 * @param publicIpId the public IP's resource ID, when there is one
 * @param osDiskId the OS disk's resource ID
 */
public record VmInventoryEntry(
        String name,
        String resourceId,
        String resourceGroup,
        String region,
        String vmSize,
        String adminUser,
        String privateIp,
        Optional<String> publicIp,
        boolean spot,
        Instant createdAt,
        String nicId,
        Optional<String> publicIpId,
        String osDiskId) {

    public VmInventoryEntry {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(resourceId, "resourceId");
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(region, "region");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(adminUser, "adminUser");
        Objects.requireNonNull(privateIp, "privateIp");
        Objects.requireNonNull(publicIp, "publicIp");
        Objects.requireNonNull(createdAt, "createdAt");
        Objects.requireNonNull(nicId, "nicId");
        Objects.requireNonNull(publicIpId, "publicIpId");
        Objects.requireNonNull(osDiskId, "osDiskId");
    }

    /** The subscription, read from the resource ID. */
    public String subscriptionId() {
        String[] parts = resourceId.split("/");
        return parts.length > 2 ? parts[2] : "";
    }

    /** The address to reach the VM at: the public one when it has one, else the private one. */
    public String sshAddress() {
        return publicIp.orElse(privateIp);
    }

    /** {@code user@address}, the form the manual backend's SSH hosts take. */
    public String sshTarget() {
        return adminUser + "@" + sshAddress();
    }
}
