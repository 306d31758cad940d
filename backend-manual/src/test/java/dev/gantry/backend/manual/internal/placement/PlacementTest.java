package dev.gantry.backend.manual.internal.placement;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.MachineFacts;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Set;
import org.junit.jupiter.api.Test;

class PlacementTest {
    private static Placement.HostLoad host(String name, int gpus, Set<Integer> held, int vcpus, int heldVcpus) {
        return new Placement.HostLoad(name, new MachineFacts(vcpus, OptionalDouble.of(64), gpus), held, heldVcpus,
                0, java.util.Optional.empty());
    }

    @Test
    void gpuJobsPackOntoThePartlyUsedHostAndTakeTheLowestFreeIndexes() {
        List<Placement.Slot> slots = Placement.choose(new Placement.Request(1, 2, 4, 16), List.of(
                host("a", 8, Set.of(), 32, 0),
                host("b", 8, Set.of(0, 1, 3), 32, 8)));
        assertEquals(List.of(new Placement.Slot("b", List.of(2, 4))), slots);
    }

    @Test
    void equalHostsAreChosenByLoadThenName() {
        List<Placement.Slot> slots = Placement.choose(new Placement.Request(3, 0, 2, 1), List.of(
                host("c", 0, Set.of(), 16, 0),
                host("b", 0, Set.of(), 16, 4),
                host("a", 0, Set.of(), 16, 0)));
        assertEquals(List.of("a", "c", "b"), slots.stream().map(Placement.Slot::host).toList());
    }

    @Test
    void refusalNamesEveryHostAndWhy() {
        GantryException e = assertThrows(GantryException.class, () -> Placement.choose(
                new Placement.Request(2, 2, 8, 100), List.of(
                        host("a", 2, Set.of(1), 16, 0),
                        host("b", 4, Set.of(), 16, 12),
                        Placement.HostLoad.unusable("c", "unreachable (timeout)"))));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertEquals("no placement: the job needs 2 host(s) with 2 free GPU(s), 8 vCPU(s) and 100 GiB memory; 0 fit "
                + "(a: 1 of 2 GPUs free, needs 2, 64 of 64 GiB memory free, needs 100; b: 4 of 16 vCPUs free, "
                + "needs 8, 64 of 64 GiB memory free, needs 100; c: unreachable (timeout)). Wait for running jobs to "
                + "end, cancel some, lower the request or add hosts", e.getMessage());
    }

    @Test
    void tooFewFitOnlyBecauseHostsCannotBeReachedIsUnavailableNotRejected() {
        GantryException e = assertThrows(GantryException.class, () -> Placement.choose(
                new Placement.Request(2, 0, 4, 1), List.of(
                        host("a", 0, Set.of(), 16, 0),
                        host("b", 0, Set.of(), 16, 14),
                        Placement.HostLoad.unusable("c", "unreachable (timeout)"))));
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertEquals("cannot place the job while 1 host(s) cannot be reached (c: unreachable (timeout)); 1 of the 2 "
                + "host(s) it needs fit among the others. Retry when they are back, or fix their address",
                e.getMessage());
    }
}
