package dev.gantry.backend.manual.internal.placement;

import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.backend.manual.internal.transport.Fleet;
import dev.gantry.backend.manual.internal.transport.FleetHost;
import dev.gantry.hosts.jobs.HostScan;
import dev.gantry.hosts.jobs.RankPlacement;
import dev.gantry.hosts.jobs.StatusMapping;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * {@link Placement} fed from the hosts: each host's capacity (probe or {@code gpus} setting) less what the jobs
 * there that have not ended hold, as their {@code placement} files record it.
 */
public final class FleetPlacement {
    private FleetPlacement() {
    }

    /** What one rank needs: the workload's own resources where given, else the plan's VM size. */
    public static Placement.Request request(Plan plan) {
        var resources = plan.workload().resources();
        return new Placement.Request(plan.nodes(), resources.gpus().orElse(plan.gpusPerNode()),
                resources.vcpus().orElse(plan.vmSize().vcpus()),
                resources.memoryGib().orElse(plan.vmSize().memoryGib()));
    }

    public static List<RankPlacement> place(Fleet fleet, Placement.Request request, Map<String, FleetHost.Scan> scans) {
        List<Placement.HostLoad> loads = new ArrayList<>();
        for (FleetHost host : fleet.hosts()) {
            loads.add(fleet.sharesCapacity() ? capacity(host, Set.of(), 0, 0) : load(host, scans.get(host.name())));
        }
        List<Placement.Slot> slots = Placement.choose(request, loads);
        List<String> names = slots.stream().map(Placement.Slot::host).toList();
        List<RankPlacement> ranks = new ArrayList<>();
        for (int k = 0; k < slots.size(); k++) {
            ranks.add(new RankPlacement(k, names, slots.get(k).gpus(), request.vcpus(), request.memoryGib()));
        }
        return ranks;
    }

    /**
     * A retried submit that stopped before every rank recorded its placement: the missing ranks keep the host the
     * first attempt chose for them and take free GPUs there now.
     */
    public static List<RankPlacement> complete(Fleet fleet, String id, Placement.Request request,
                                        List<RankPlacement> ranks, Map<String, FleetHost.Scan> scans) {
        List<RankPlacement> complete = new ArrayList<>();
        for (RankPlacement rank : ranks) {
            FleetHost.Scan scan = scans.get(rank.host());
            HostScan.Entry entry = scan == null ? null : scan.entries().get(id);
            if (entry != null && entry.placement().isPresent()) {
                complete.add(rank);
                continue;
            }
            FleetHost.Scan seen = scan == null ? new FleetHost.Scan(Map.of(), Optional.of("not in the inventory"))
                    : scan;
            Placement.HostLoad load = load(fleet.host(rank.host()), seen);
            List<Placement.Slot> slot = Placement.choose(new Placement.Request(1, request.gpus(), request.vcpus(),
                    request.memoryGib()), List.of(load));
            complete.add(new RankPlacement(rank.rank(), rank.hosts(), slot.get(0).gpus(), request.vcpus(),
                    request.memoryGib()));
        }
        return complete;
    }

    /** A host's capacity less what the jobs there that have not ended hold, from their placement files. */
    public static Placement.HostLoad load(FleetHost host, FleetHost.Scan scan) {
        if (scan.error().isPresent()) {
            return Placement.HostLoad.unusable(host.name(), "unreachable (" + scan.error().get() + ")");
        }
        Set<Integer> gpus = new HashSet<>();
        int vcpus = 0;
        double memory = 0;
        for (HostScan.Entry entry : scan.entries().values()) {
            if (entry.placement().isPresent() && !StatusMapping.map(entry.snapshot()).state().isTerminal()) {
                gpus.addAll(entry.placement().get().gpus());
                vcpus += entry.placement().get().vcpus();
                memory += entry.placement().get().memoryGib();
            }
        }
        return capacity(host, gpus, vcpus, memory);
    }

    public static Placement.HostLoad capacity(FleetHost host, Set<Integer> gpus, int vcpus, double memory) {
        try {
            return new Placement.HostLoad(host.name(), host.host().facts(), gpus, vcpus, memory, Optional.empty());
        } catch (GantryException e) {
            return Placement.HostLoad.unusable(host.name(), "unreachable (" + e.getMessage() + ")");
        }
    }
}
