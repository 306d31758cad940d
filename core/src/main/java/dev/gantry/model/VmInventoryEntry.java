package dev.gantry.model;

import dev.gantry.api.backend.ProvisionedHost;
import java.time.Instant;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeMap;

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
 * @param hostKeyFingerprints the SHA-256 fingerprints of the VM's SSH host keys, read on the VM through Azure Run
 *     Command when it was provisioned; empty for entries written before Gantry captured them
 * @param labels the workload and plan labels the VM was created for (its tags, without Gantry's own)
 * @param availabilitySetId the resource ID of the availability set Gantry created the VM in, so that the VMs of an
 *     RDMA plan share one InfiniBand fabric; empty for a VM in none (and for entries written before Gantry recorded
 *     it)
 * @param scaleSetId the resource ID of the scale set the VM is an instance of (the zonal fabric of an RDMA plan),
 *     whose API creates and deletes it; empty for a VM of its own (and for entries written before scale sets)
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
        String osDiskId,
        List<String> hostKeyFingerprints,
        Map<String, String> labels,
        Optional<String> availabilitySetId,
        Optional<String> scaleSetId) {

    /**
     * Checks that every component is given and copies the fingerprints and labels (sorted by key).
     *
     * @param name the VM name
     * @param resourceId the VM's resource ID
     * @param resourceGroup the resource group
     * @param region the region
     * @param vmSize the size name
     * @param adminUser the Linux account
     * @param privateIp the private address
     * @param publicIp the public address, or empty
     * @param spot whether it is a Spot VM
     * @param createdAt when it was created
     * @param nicId the NIC's resource ID
     * @param publicIpId the public IP's resource ID, or empty
     * @param osDiskId the OS disk's resource ID
     * @param hostKeyFingerprints the host key fingerprints, copied; may be empty
     * @param labels the labels, copied
     * @param availabilitySetId the availability set's resource ID, or empty
     * @param scaleSetId the scale set's resource ID, or empty
     * @throws NullPointerException when a component is null
     */
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
        hostKeyFingerprints = List.copyOf(hostKeyFingerprints);
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
        Objects.requireNonNull(availabilitySetId, "availabilitySetId");
        Objects.requireNonNull(scaleSetId, "scaleSetId");
    }

    /**
     * An entry of a VM of its own (no scale set instance).
     *
     * @param name see {@link #name()}
     * @param resourceId see {@link #resourceId()}
     * @param resourceGroup see {@link #resourceGroup()}
     * @param region see {@link #region()}
     * @param vmSize see {@link #vmSize()}
     * @param adminUser see {@link #adminUser()}
     * @param privateIp see {@link #privateIp()}
     * @param publicIp see {@link #publicIp()}
     * @param spot see {@link #spot()}
     * @param createdAt see {@link #createdAt()}
     * @param nicId see {@link #nicId()}
     * @param publicIpId see {@link #publicIpId()}
     * @param osDiskId see {@link #osDiskId()}
     * @param hostKeyFingerprints see {@link #hostKeyFingerprints()}
     * @param labels see {@link #labels()}
     * @param availabilitySetId see {@link #availabilitySetId()}
     */
    public VmInventoryEntry(String name, String resourceId, String resourceGroup, String region, String vmSize,
            String adminUser, String privateIp, Optional<String> publicIp, boolean spot, Instant createdAt,
            String nicId, Optional<String> publicIpId, String osDiskId, List<String> hostKeyFingerprints,
            Map<String, String> labels, Optional<String> availabilitySetId) {
        this(name, resourceId, resourceGroup, region, vmSize, adminUser, privateIp, publicIp, spot, createdAt, nicId,
                publicIpId, osDiskId, hostKeyFingerprints, labels, availabilitySetId, Optional.empty());
    }

    /**
     * An entry of a VM in no availability set.
     *
     * @param name see {@link #name()}
     * @param resourceId see {@link #resourceId()}
     * @param resourceGroup see {@link #resourceGroup()}
     * @param region see {@link #region()}
     * @param vmSize see {@link #vmSize()}
     * @param adminUser see {@link #adminUser()}
     * @param privateIp see {@link #privateIp()}
     * @param publicIp see {@link #publicIp()}
     * @param spot see {@link #spot()}
     * @param createdAt see {@link #createdAt()}
     * @param nicId see {@link #nicId()}
     * @param publicIpId see {@link #publicIpId()}
     * @param osDiskId see {@link #osDiskId()}
     * @param hostKeyFingerprints see {@link #hostKeyFingerprints()}
     * @param labels see {@link #labels()}
     */
    public VmInventoryEntry(String name, String resourceId, String resourceGroup, String region, String vmSize,
            String adminUser, String privateIp, Optional<String> publicIp, boolean spot, Instant createdAt,
            String nicId, Optional<String> publicIpId, String osDiskId, List<String> hostKeyFingerprints,
            Map<String, String> labels) {
        this(name, resourceId, resourceGroup, region, vmSize, adminUser, privateIp, publicIp, spot, createdAt, nicId,
                publicIpId, osDiskId, hostKeyFingerprints, labels, Optional.empty());
    }

    /**
     * An entry without recorded host keys or labels, as older inventories hold them.
     *
     * @param name see {@link #name()}
     * @param resourceId see {@link #resourceId()}
     * @param resourceGroup see {@link #resourceGroup()}
     * @param region see {@link #region()}
     * @param vmSize see {@link #vmSize()}
     * @param adminUser see {@link #adminUser()}
     * @param privateIp see {@link #privateIp()}
     * @param publicIp see {@link #publicIp()}
     * @param spot see {@link #spot()}
     * @param createdAt see {@link #createdAt()}
     * @param nicId see {@link #nicId()}
     * @param publicIpId see {@link #publicIpId()}
     * @param osDiskId see {@link #osDiskId()}
     */
    public VmInventoryEntry(String name, String resourceId, String resourceGroup, String region, String vmSize,
            String adminUser, String privateIp, Optional<String> publicIp, boolean spot, Instant createdAt,
            String nicId, Optional<String> publicIpId, String osDiskId) {
        this(name, resourceId, resourceGroup, region, vmSize, adminUser, privateIp, publicIp, spot, createdAt, nicId,
                publicIpId, osDiskId, List.of(), Map.of());
    }

    /**
     * This entry with the host-key fingerprints read on the VM.
     *
     * @param fingerprints the fingerprints, {@code SHA256:...}, replacing any recorded
     * @return a copy with those fingerprints
     */
    public VmInventoryEntry withHostKeyFingerprints(List<String> fingerprints) {
        return new VmInventoryEntry(name, resourceId, resourceGroup, region, vmSize, adminUser, privateIp, publicIp,
                spot, createdAt, nicId, publicIpId, osDiskId, fingerprints, labels, availabilitySetId, scaleSetId);
    }

    /** {@return whether SSH to this VM can verify its host key from the record alone (fingerprints were recorded)} */
    public boolean hostKeyPinned() {
        return !hostKeyFingerprints.isEmpty();
    }

    /** {@return the subscription id, read from the resource ID; empty text when the ID has none} */
    public String subscriptionId() {
        String[] parts = resourceId.split("/");
        return parts.length > 2 ? parts[2] : "";
    }

    /** {@return the address to reach the VM at: the public one when it has one, else the private one} */
    public String sshAddress() {
        return publicIp.orElse(privateIp);
    }

    /** {@return {@code user@address}, the form the manual backend's SSH hosts take} */
    public String sshTarget() {
        return adminUser + "@" + sshAddress();
    }

    /** {@return this VM as backends see it through {@link dev.gantry.api.backend.BackendContext#provisionedHosts()}} */
    public ProvisionedHost asProvisionedHost() {
        return new ProvisionedHost(name, sshAddress(), adminUser, vmSize, region, spot, hostKeyFingerprints, labels);
    }
}
