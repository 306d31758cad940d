package dev.gantry.azure.vm;

import java.time.Instant;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;

/**
 * What Resource Manager says about one VM and the resources it uses.
 *
 * @param name the VM's name
 * @param id its resource ID
 * @param region its location
 * @param vmSize its size
 * @param adminUser its login user
 * @param privateIp the private address of its primary NIC
 * @param publicIp the public address, when the NIC has a public IP
 * @param spot whether it runs on Spot capacity
 * @param created when Azure created it, when Azure says
 * @param nicId the primary NIC's resource ID
 * @param publicIpId the public IP's resource ID, when there is one
 * @param osDiskId the OS disk's resource ID
 * @param tags its tags
 */
public record VmFacts(String name, String id, String region, String vmSize, String adminUser, String privateIp,
                      Optional<String> publicIp, boolean spot, Optional<Instant> created, String nicId,
                      Optional<String> publicIpId, String osDiskId, Map<String, String> tags) {
    public VmFacts {
        Objects.requireNonNull(name, "name");
        Objects.requireNonNull(id, "id");
        tags = Map.copyOf(tags);
    }
}
