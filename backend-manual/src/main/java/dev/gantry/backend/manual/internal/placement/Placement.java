package dev.gantry.backend.manual.internal.placement;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.MachineFacts;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;

/**
 * Chooses the hosts of a job: one rank per host, each host with enough free GPUs, CPUs and memory once the jobs
 * Gantry runs there are subtracted. Among the hosts that fit, the order is:
 * <ol>
 *   <li>fewest GPUs left free after placing (best fit: GPU jobs pack onto partly used hosts and whole hosts stay
 *       free for jobs that need all their GPUs; CPU jobs go to hosts without idle GPUs first);</li>
 *   <li>most vCPUs left free after placing (least loaded);</li>
 *   <li>host name, so equal hosts are chosen the same way every time.</li>
 * </ol>
 * Rank 0 is the first host chosen. A refusal lists every host and why it did not fit.
 */
public final class Placement {
    /** What one rank needs. */
    public record Request(int nodes, int gpus, int vcpus, double memoryGib) {
    }

    /**
     * One host as placement sees it: its capacity and what running jobs hold, or why it cannot be used.
     *
     * @param heldGpus GPU indexes running jobs hold
     */
    public record HostLoad(String name, MachineFacts capacity, Set<Integer> heldGpus, int heldVcpus,
                           double heldMemoryGib, Optional<String> unusable) {
        static HostLoad unusable(String name, String why) {
            return new HostLoad(name, new MachineFacts(0, java.util.OptionalDouble.empty(), 0), Set.of(), 0, 0,
                    Optional.of(why));
        }

        List<Integer> freeGpus() {
            List<Integer> free = new ArrayList<>();
            for (int i = 0; i < capacity.nvidiaGpus(); i++) {
                if (!heldGpus.contains(i)) {
                    free.add(i);
                }
            }
            return free;
        }

        int freeVcpus() {
            return capacity.vcpus() - heldVcpus;
        }

        /** Why this host cannot take one rank of the request; empty when it can. */
        Optional<String> misfit(Request request) {
            if (unusable.isPresent()) {
                return unusable;
            }
            List<String> why = new ArrayList<>();
            if (freeGpus().size() < request.gpus()) {
                why.add(freeGpus().size() + " of " + capacity.nvidiaGpus() + " GPUs free, needs " + request.gpus());
            }
            if (freeVcpus() < request.vcpus()) {
                why.add(Math.max(0, freeVcpus()) + " of " + capacity.vcpus() + " vCPUs free, needs " + request.vcpus());
            }
            if (capacity.memoryGib().isPresent()
                    && capacity.memoryGib().getAsDouble() - heldMemoryGib < request.memoryGib()) {
                why.add(gib(Math.max(0, capacity.memoryGib().getAsDouble() - heldMemoryGib)) + " of "
                        + gib(capacity.memoryGib().getAsDouble()) + " GiB memory free, needs "
                        + gib(request.memoryGib()));
            }
            return why.isEmpty() ? Optional.empty() : Optional.of(String.join(", ", why));
        }
    }

    /** One chosen host and the GPUs the rank takes there. */
    public record Slot(String host, List<Integer> gpus) {
    }

    public static final Comparator<HostLoad> ORDER = Comparator
            .comparingInt((HostLoad h) -> h.freeGpus().size())
            .thenComparing(Comparator.comparingInt(HostLoad::freeVcpus).reversed())
            .thenComparing(HostLoad::name);

    private Placement() {
    }

    /**
     * The hosts of every rank, rank 0 first; PLAN_REJECTED naming every host's misfit when too few fit, or
     * BACKEND_UNAVAILABLE when enough would fit were the hosts that cannot be reached among them: nothing known says
     * the plan does not fit then.
     */
    public static List<Slot> choose(Request request, List<HostLoad> hosts) {
        List<HostLoad> fitting = new ArrayList<>();
        List<String> reasons = new ArrayList<>();
        List<String> unreachable = new ArrayList<>();
        for (HostLoad host : hosts) {
            Optional<String> misfit = host.misfit(request);
            if (misfit.isPresent()) {
                reasons.add(host.name() + ": " + misfit.get());
            } else {
                fitting.add(host);
            }
            host.unusable().ifPresent(why -> unreachable.add(host.name() + ": " + why));
        }
        if (fitting.size() < request.nodes() && fitting.size() + unreachable.size() >= request.nodes()) {
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "cannot place the job while "
                    + unreachable.size() + " host(s) cannot be reached (" + String.join("; ", unreachable) + "); "
                    + fitting.size() + " of the " + request.nodes() + " host(s) it needs fit among the others. Retry "
                    + "when they are back, or fix their address");
        }
        if (fitting.size() < request.nodes()) {
            String needs = request.nodes() + " host(s) with " + request.gpus() + " free GPU(s), " + request.vcpus()
                    + " vCPU(s) and " + gib(request.memoryGib()) + " GiB memory";
            throw new GantryException(ErrorCode.PLAN_REJECTED, "no placement: the job needs " + needs + "; "
                    + fitting.size() + " fit" + (reasons.isEmpty() ? "" : " (" + String.join("; ", reasons) + ")")
                    + ". Wait for running jobs to end, cancel some, lower the request or add hosts");
        }
        fitting.sort(ORDER);
        List<Slot> slots = new ArrayList<>();
        for (HostLoad host : fitting.subList(0, request.nodes())) {
            slots.add(new Slot(host.name(), List.copyOf(new TreeSet<>(host.freeGpus()).stream()
                    .limit(request.gpus()).toList())));
        }
        return slots;
    }

    private static String gib(double value) {
        return BigDecimal.valueOf(value).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
