package dev.gantry.runs.provision;

import static org.junit.jupiter.api.Assertions.assertEquals;

import dev.gantry.azure.vm.NetworkBlueprint;
import dev.gantry.azure.vm.VmBlueprint;
import java.math.BigDecimal;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class VmTemplateTest {
    @Test
    void aVmIsNamedAfterTheRequestAndCarriesItsSpotTermsAndTags() {
        ProvisionRequest request = VmProvisionerTest.request(1, Optional.of(new ProvisionRequest.Spot(
                ProvisionRequest.EvictionPolicy.DELETE, new BigDecimal("1.25"))), false);
        VmBlueprint vm = VmTemplate.vm(request, "train-1", Optional.empty());
        assertEquals("train-1-osdisk", vm.osDiskName());
        assertEquals(Optional.of(new VmBlueprint.Spot(true, new BigDecimal("1.25"))), vm.spot());
        assertEquals(request.resourceTags(), vm.tags());
        assertEquals("true", vm.tags().get(ProvisionRequest.MANAGED_TAG));
        assertEquals(Optional.empty(), VmTemplate.vm(VmProvisionerTest.request(1, Optional.empty(), false), "a-1",
                Optional.empty())
                .spot());
    }

    @Test
    void theDefaultNetworkHasTheDefaultAddressSpaceAndTheRequestedSubnet() {
        ProvisionRequest request = VmProvisionerTest.request(1, Optional.empty(), false);
        NetworkBlueprint network = VmTemplate.defaultNetwork(request);
        assertEquals(ProvisionRequest.Network.DEFAULT_ADDRESS_SPACE, network.addressSpace());
        assertEquals(request.network().subnet(), network.subnet());
        assertEquals(request.network().virtualNetwork(), network.virtualNetwork());
    }
}
