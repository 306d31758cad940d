package dev.gantry.runs.provision;

import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.azure.fakes.ArmFake;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the provisioning tests share: a fresh ARM fake and inventory per test, and a provisioner whose readiness
 * check passes at once, noting each VM it checks in {@link #readinessProbes}.
 */
abstract class ProvisioningFixture {
    @TempDir
    Path home;
    ArmFake arm;
    VmInventory inventory;
    List<String> readinessProbes = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        arm = new ArmFake();
        inventory = new VmInventory(home);
    }

    @AfterEach
    void stop() {
        arm.close();
    }

    VmProvisioner provisioner(ArmConnector connector) {
        ReadinessCheck recording = vm -> {
            readinessProbes.add(vm.name() + "@" + vm.sshAddress());
            return ReadinessCheck.Readiness.ok();
        };
        Clock clock = Clock.fixed(Instant.parse("2026-11-29T12:00:00Z"), ZoneOffset.UTC);
        return new VmProvisioner(connector, inventory,
                new ReadinessWait(recording, Duration.ofMinutes(1), Duration.ofSeconds(1), clock, pause -> { }),
                clock);
    }

    VmProvisioner provisioner() {
        return provisioner(arm.connector());
    }
}
