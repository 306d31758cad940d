package dev.gantry.azure.vm;

import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * One instance of a scale set, read with its instance view and its NIC's addresses.
 *
 * @param name its name, {@code <set>_<instanceId>}
 * @param instanceId its instance ID within the set
 * @param id its resource ID ({@code .../virtualMachineScaleSets/<set>/virtualMachines/<instanceId>})
 * @param region its location
 * @param vmSize its size
 * @param provisioningState {@code Succeeded}, {@code Creating}, {@code Failed}, ...
 * @param powerState {@code running}, {@code deallocated}, ... from its instance view, when Azure says
 * @param adminUser its login user
 * @param created when Azure created it, when Azure says
 * @param nicId its primary NIC's resource ID
 * @param privateIp the private address of that NIC
 * @param publicIpId its public IP's resource ID, when it has one
 * @param publicIp its public address, when it has one
 * @param osDiskId its OS disk's resource ID
 */
public record ScaleSetInstance(String name, String instanceId, String id, String region, String vmSize,
                               String provisioningState, Optional<String> powerState, String adminUser,
                               Optional<Instant> created, String nicId, String privateIp, Optional<String> publicIpId,
                               Optional<String> publicIp, String osDiskId) {
    public ScaleSetInstance {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(instanceId, "instanceId");
        Objects.requireNonNull(id, "id");
        Objects.requireNonNull(powerState, "powerState");
        Objects.requireNonNull(created, "created");
        Objects.requireNonNull(publicIpId, "publicIpId");
        Objects.requireNonNull(publicIp, "publicIp");
    }
}
