package dev.gantry.api.backend;

import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * A VM that Gantry provisioned ({@code gantry vm up}) and recorded, as core hands it to backends that reach hosts
 * over SSH. Backends cannot read core's VM inventory themselves; this record is what crosses the SPI.
 *
 * @param name the VM's name, unique among the provisioned VMs
 * @param address the address to reach it over SSH at: its public IP when it has one, else its private IP
 * @param adminUser the Linux account the SSH key was installed for
 * @param vmSize the Azure VM size
 * @param region the Azure region
 * @param spot whether it runs on spot capacity (and can be evicted)
 * @param hostKeyFingerprints the SHA-256 fingerprints of its SSH host keys ({@code SHA256:...}) as Azure Run Command
 *     read them on the VM when it was provisioned; empty when none were recorded (an inventory of an older
 *     version), in which case its key cannot be verified from the record
 * @param labels {@code key=value} labels (the workload's and plan's labels the VM was created for)
 */
public record ProvisionedHost(String name, String address, String adminUser, String vmSize, String region,
                              boolean spot, List<String> hostKeyFingerprints, Map<String, String> labels) {
    /**
     * Copies the fingerprints and the labels (sorted by key).
     *
     * @param name the VM's name
     * @param address the SSH address
     * @param adminUser the Linux account
     * @param vmSize the VM size
     * @param region the region
     * @param spot whether it is a Spot VM
     * @param hostKeyFingerprints the host key fingerprints, copied; may be empty
     * @param labels the labels, copied
     * @throws NullPointerException when a component is null
     */
    public ProvisionedHost {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(address, "address");
        Objects.requireNonNull(adminUser, "adminUser");
        Objects.requireNonNull(vmSize, "vmSize");
        Objects.requireNonNull(region, "region");
        hostKeyFingerprints = List.copyOf(hostKeyFingerprints);
        labels = Collections.unmodifiableMap(new TreeMap<>(labels));
    }
}
