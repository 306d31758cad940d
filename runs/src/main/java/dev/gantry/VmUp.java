package dev.gantry;

import java.nio.file.Path;
import java.time.Duration;
import java.util.Objects;
import java.util.Optional;

/**
 * What {@code gantry vm up} asks for: the VMs of a spec's plan, where and how to reach them.
 *
 * @param spec the workload spec whose plan decides the VMs
 * @param subscription the Azure subscription to create them in
 * @param resourceGroup the resource group (created when absent)
 * @param count how many VMs; empty: the plan's nodes
 * @param adminUser the login user
 * @param publicKeyFile the SSH public key installed on them
 * @param identity the private key the doctor logs in with; empty: the one beside {@code publicKeyFile}, else the
 *     backend's configured login
 * @param publicIpSource where SSH may come from when each VM gets a public IP; empty: no public IP
 * @param namePrefix VM names are PREFIX-1..N; empty: the workload's name
 * @param skipDoctor wait only until port 22 answers
 * @param waitTimeout how long to wait for them to be ready
 * @param zone the availability zone to place them in ({@code 1}, {@code 2} or {@code 3}); empty: the zone Gantry
 *     picks for the plan, today none (regional VMs)
 */
public record VmUp(Path spec, String subscription, String resourceGroup, Optional<Integer> count, String adminUser,
                   Path publicKeyFile, Optional<Path> identity, Optional<String> publicIpSource,
                   Optional<String> namePrefix, boolean skipDoctor, Duration waitTimeout, Optional<String> zone) {
    /**
     * Checks that every component is given (the optional ones may be empty).
     *
     * @param spec the workload spec
     * @param subscription the subscription id
     * @param resourceGroup the resource group
     * @param count the VM count, or empty
     * @param adminUser the login user
     * @param publicKeyFile the SSH public key file
     * @param identity the private key, or empty
     * @param publicIpSource the SSH source range, or empty
     * @param namePrefix the name prefix, or empty
     * @param skipDoctor whether to skip the doctor
     * @param waitTimeout the longest wait
     * @param zone the zone asked for, or empty
     * @throws NullPointerException when a component is null
     */
    public VmUp {
        Objects.requireNonNull(spec, "spec");
        Objects.requireNonNull(subscription, "subscription");
        Objects.requireNonNull(resourceGroup, "resourceGroup");
        Objects.requireNonNull(count, "count");
        Objects.requireNonNull(adminUser, "adminUser");
        Objects.requireNonNull(publicKeyFile, "publicKeyFile");
        Objects.requireNonNull(identity, "identity");
        Objects.requireNonNull(publicIpSource, "publicIpSource");
        Objects.requireNonNull(namePrefix, "namePrefix");
        Objects.requireNonNull(waitTimeout, "waitTimeout");
        Objects.requireNonNull(zone, "zone");
    }

    /**
     * A request without a zone: the zone Gantry picks for the plan.
     *
     * @param spec the workload spec
     * @param subscription the subscription id
     * @param resourceGroup the resource group
     * @param count the VM count, or empty
     * @param adminUser the login user
     * @param publicKeyFile the SSH public key file
     * @param identity the private key, or empty
     * @param publicIpSource the SSH source range, or empty
     * @param namePrefix the name prefix, or empty
     * @param skipDoctor whether to skip the doctor
     * @param waitTimeout the longest wait
     * @throws NullPointerException when a component is null
     */
    public VmUp(Path spec, String subscription, String resourceGroup, Optional<Integer> count, String adminUser,
            Path publicKeyFile, Optional<Path> identity, Optional<String> publicIpSource, Optional<String> namePrefix,
            boolean skipDoctor, Duration waitTimeout) {
        this(spec, subscription, resourceGroup, count, adminUser, publicKeyFile, identity, publicIpSource, namePrefix,
                skipDoctor, waitTimeout, Optional.empty());
    }
}
