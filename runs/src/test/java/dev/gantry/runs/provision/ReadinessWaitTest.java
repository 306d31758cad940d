package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.core.ManualClock;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class ReadinessWaitTest {
    /** Advanced by the sleeper, so bounded waits are tested without waiting. */
    final ManualClock clock = new ManualClock(Instant.parse("2026-11-29T12:00:00Z"));
    final List<Duration> sleeps = new ArrayList<>();

    ReadinessWait waitFor(ReadinessCheck check) {
        return new ReadinessWait(check, Duration.ofSeconds(60), Duration.ofSeconds(10), clock, pause -> {
            sleeps.add(pause);
            clock.advance(pause);
        });
    }

    @Test
    void pollsOnlyTheVmsThatAreNotReadyYet() {
        Map<String, Integer> attempts = new HashMap<>();
        ReadinessCheck slowSecond = vm -> {
            int n = attempts.merge(vm.name(), 1, Integer::sum);
            return vm.name().equals("a-1") || n >= 3 ? ReadinessCheck.Readiness.ok()
                    : ReadinessCheck.Readiness.notYet("booting");
        };

        waitFor(slowSecond).await(List.of(VmInventoryTest.entry("a-1", Optional.empty()),
                VmInventoryTest.entry("a-2", Optional.empty())));

        assertEquals(Map.of("a-1", 1, "a-2", 3), attempts);
        assertEquals(List.of(Duration.ofSeconds(10), Duration.ofSeconds(10)), sleeps);
    }

    @Test
    void tellsProgressAfterEachRoundWhichVmsItStillWaitsForAndWhy() {
        Map<String, Integer> attempts = new HashMap<>();
        ReadinessCheck slowSecond = vm -> attempts.merge(vm.name(), 1, Integer::sum) >= 2 || vm.name().equals("a-1")
                ? ReadinessCheck.Readiness.ok() : ReadinessCheck.Readiness.notYet("booting");
        List<String> steps = new ArrayList<>();

        waitFor(slowSecond).await(List.of(VmInventoryTest.entry("a-1", Optional.empty()),
                VmInventoryTest.entry("a-2", Optional.empty())), (what, detail) -> steps.add(what + " / " + detail));

        assertEquals(List.of("waiting for 2 VMs to be ready / ", "waiting for 2 VMs to be ready / a-2: booting"), steps,
                "the step as it starts, then the VMs still waited for after each round that leaves some");
    }

    @Test
    void givesUpAtTheBoundNamingEachVmAndWhy() {
        GantryException e = assertThrows(GantryException.class, () -> waitFor(
                vm -> ReadinessCheck.Readiness.notYet("port 22 at " + vm.sshAddress() + " does not answer"))
                .await(List.of(VmInventoryTest.entry("a-1", Optional.of("20.0.0.1")))));

        assertEquals(ErrorCode.REMOTE_ERROR, e.code());
        assertEquals("1 VM(s) not ready after 1m:\n  a-1: port 22 at 20.0.0.1 does not answer\nThe VMs are still "
                + "running and billing: inspect them, or remove them with gantry vm down.", e.getMessage());
        assertEquals(5, sleeps.size(), "attempts at 0, 10, ..., 50 s; the next would pass the 60 s bound");
    }

    @Test
    void aClockThatDoesNotMoveCannotMakeTheWaitEndless() {
        List<Duration> naps = new ArrayList<>();
        ReadinessWait stuck = new ReadinessWait(vm -> ReadinessCheck.Readiness.notYet("booting"),
                Duration.ofSeconds(60), Duration.ofSeconds(10), Clock.fixed(clock.instant(), ZoneOffset.UTC), naps::add);

        assertThrows(GantryException.class, () -> stuck.await(List.of(VmInventoryTest.entry("a-1", Optional.empty()))));
        assertEquals(6, naps.size(), "at most timeout / interval + 1 attempts");
    }

    @Test
    void chainedChecksStopAtTheFirstThatIsNotReady() {
        List<String> ran = new ArrayList<>();
        ReadinessCheck ssh = vm -> {
            ran.add("ssh");
            return ReadinessCheck.Readiness.notYet("no ssh");
        };
        ReadinessCheck doctor = vm -> {
            ran.add("doctor");
            return ReadinessCheck.Readiness.ok();
        };

        var answer = ssh.then(doctor).check(VmInventoryTest.entry("a-1", Optional.empty()));

        assertEquals(ReadinessCheck.Readiness.notYet("no ssh"), answer);
        assertEquals(List.of("ssh"), ran);
    }

    @Test
    void tcpCheckIsReadyOnlyWhenThePortAnswers() throws Exception {
        VmInventoryEntry local = VmInventoryTest.entry("a-1", Optional.of("127.0.0.1"));
        int port;
        try (ServerSocket listening = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
            port = listening.getLocalPort();
            assertTrue(new TcpPortCheck(port, Duration.ofSeconds(2)).check(local).ready());
        }
        var closed = new TcpPortCheck(port, Duration.ofSeconds(2)).check(local);
        assertEquals(false, closed.ready());
        assertTrue(closed.detail().startsWith("port " + port + " at 127.0.0.1 does not answer"), closed.detail());
    }

    @Test
    void aVmThatCanNeverBeReadyIsReportedAtOnceWhileTheOthersAreAwaited() {
        Map<String, Integer> attempts = new HashMap<>();
        ReadinessCheck check = vm -> {
            int n = attempts.merge(vm.name(), 1, Integer::sum);
            if (vm.name().equals("a-1")) {
                return ReadinessCheck.Readiness.never("doctor: ssh.hostKey MISSING");
            }
            return n >= 2 ? ReadinessCheck.Readiness.ok() : ReadinessCheck.Readiness.notYet("booting");
        };

        GantryException e = assertThrows(GantryException.class, () -> waitFor(check).await(List.of(
                VmInventoryTest.entry("a-1", Optional.empty()), VmInventoryTest.entry("a-2", Optional.empty()))));

        assertEquals(Map.of("a-1", 1, "a-2", 2), attempts, "a-1 asked once; a-2 until ready");
        assertEquals("1 VM(s) not ready (waiting would not change it):\n  a-1: doctor: ssh.hostKey MISSING\nThe VMs "
                + "are still running and billing: inspect them, or remove them with gantry vm down.", e.getMessage());
        assertEquals(List.of(Duration.ofSeconds(10)), sleeps);
    }
}
