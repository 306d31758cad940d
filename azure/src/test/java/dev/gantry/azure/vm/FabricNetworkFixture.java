package dev.gantry.azure.vm;

import dev.gantry.azure.arm.ArmFailures.Scope;
import dev.gantry.azure.fakes.ArmFake;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;

/**
 * What the placement tests of {@link ArmVms} start from: a fake Resource Manager reached through the real SDK, with a
 * resource group and a virtual network whose subnet the sets' VMs join.
 */
abstract class FabricNetworkFixture {
    static final String RG = "fabric-rg";
    static final Scope SCOPE = new Scope("testing placement", "Standard_ND96isr_H100_v5", "eastus");
    static final Map<String, String> TAGS = Map.of("gantry:managed", "true");

    ArmFake fake;
    ArmVms arm;
    String subnetId;

    @BeforeEach
    void start() throws Exception {
        fake = new ArmFake();
        arm = ArmVms.connect(fake.connector(), ArmFake.SUBSCRIPTION);
        arm.createResourceGroup(RG, "eastus", TAGS, SCOPE);
        subnetId = arm.createNetwork(new NetworkBlueprint(RG, "eastus", "vnet", "10.210.0.0/16", "default",
                "10.210.0.0/20", TAGS), SCOPE).orElseThrow();
    }

    @AfterEach
    void stop() {
        fake.close();
    }
}
