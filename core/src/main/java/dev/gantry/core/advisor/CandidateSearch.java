package dev.gantry.core.advisor;

import dev.gantry.api.Interconnect;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * One pass of rules 2-8 over one capacity type (rule 9): the {@link Constraint}s decide which rows are feasible,
 * {@link Candidate#ORDER} ranks them. Keeps the best few distinct sizes for the alternatives and counts why the
 * others failed. The pass's state lives only while {@link #run} runs; its result is an immutable {@link SearchPass}.
 */
final class CandidateSearch {
    /** The chosen size and the five alternatives, one row per size. */
    static final int KEEP = 6;

    private final CatalogIndex index;
    private final Requirements req;
    private final boolean spot;
    /** The constraints that can reject anything for these requirements, in evaluation order. */
    private final Constraint[] active;
    /** Each active constraint's position in {@link Constraint#ALL}. */
    private final int[] position;
    /** Each active constraint as a check of the candidate, or null for a check of the row the index has made. */
    private final Constraint.OfCandidate[] candidateCheck;
    /** Per row, the row checks that reject it on this pass's capacity type (see {@link CatalogIndex}). */
    private final long[] rowRejections;
    /** The index in {@link #active} of the subscription's first check, {@link #active}'s length when none applies. */
    private final int subscriptionFrom;
    /** The layout shared by every row, or null when it depends on the row (M1). */
    private final Layout shared;

    private final int[] failedFirst = new int[Constraint.ALL.size()];
    private final int[] ndFailedFirst = new int[Constraint.ALL.size()];
    private final List<Candidate> top = new ArrayList<>(KEEP + 1);
    private int considered;
    private int feasible;
    private int retiredExample = -1;
    private int restrictedExample = -1;
    private int unpricedRow = -1;
    private int unpricedPreference = Integer.MAX_VALUE;
    private int unpricedCount;
    /** Per region id, the best candidate lost only to quota; null where none was. */
    private final Candidate[] quotaLost;
    private int unofferedExample = -1;
    private int zoneExample = -1;

    private CandidateSearch(CatalogIndex index, Requirements req, boolean spot) {
        this.index = index;
        this.req = req;
        this.spot = spot;
        // Plain arrays, filled in one loop: a plan makes two or three passes, and this runs for each.
        int all = Constraint.ALL.size();
        Constraint[] applicable = new Constraint[all];
        int[] positions = new int[all];
        int count = 0;
        for (int i = 0; i < all; i++) {
            Constraint constraint = Constraint.ALL.get(i);
            if (constraint.appliesTo(req)) {
                applicable[count] = constraint;
                positions[count++] = i;
            }
        }
        this.active = Arrays.copyOf(applicable, count);
        this.position = Arrays.copyOf(positions, count);
        this.candidateCheck = new Constraint.OfCandidate[count];
        int firstSubscription = count;
        for (int i = 0; i < count; i++) {
            candidateCheck[i] = active[i] instanceof Constraint.OfCandidate check ? check : null;
            if (active[i] instanceof Constraint.OfSubscription && firstSubscription == count) {
                firstSubscription = i;
            }
        }
        this.subscriptionFrom = firstSubscription;
        this.shared = Layout.shared(req);
        this.rowRejections = spot ? index.spotRejections : index.onDemandRejections;
        this.quotaLost = new Candidate[index.regionNames.length];
    }

    /** Searches the rows of the workload's families on spot or on-demand prices. */
    static SearchPass run(CatalogIndex index, Requirements req, boolean spot) {
        return new CandidateSearch(index, req, spot).search();
    }

    private SearchPass search() {
        int[] rows = req.gpu() ? index.gpuRows
                : req.training() ? index.memoryOptimizedRows : index.computeOptimizedRows;
        for (int row : rows) {
            considered++;
            Layout layout = shared != null ? shared : Layout.forModel(req, index.gpuMemoryGib[row]);
            double perNode = index.price(row, spot);
            int failed = firstFailure(row, layout, perNode, 0);
            if (failed < 0) {
                feasible++;
                offer(row, layout, perNode);
                continue;
            }
            Constraint constraint = active[failed];
            failedFirst[position[failed]]++;
            if (constraint instanceof Constraint.Retired && earlier(row, retiredExample)) {
                retiredExample = row;
            } else if (constraint instanceof Constraint.Restricted && earlier(row, restrictedExample)) {
                restrictedExample = row;
            } else if (constraint instanceof Constraint.Offered && earlier(row, unofferedExample)) {
                unofferedExample = row;
            } else if (constraint instanceof Constraint.Zones && earlier(row, zoneExample)) {
                zoneExample = row;
            } else if (constraint instanceof Constraint.Quota) {
                lostToQuota(row, layout, perNode);
            }
            if (index.group[row] == CatalogIndex.ND) {
                ndFailedFirst[position[failed]]++;
            }
            if (constraint instanceof Constraint.Price && firstFailure(row, layout, perNode, failed + 1) < 0) {
                unpricedCount++;
                int preference = preference(row);
                if (preference < unpricedPreference
                        || preference == unpricedPreference && earlier(row, unpricedRow)) {
                    unpricedPreference = preference;
                    unpricedRow = row;
                }
            }
        }
        List<Candidate> lost = new ArrayList<>();
        for (Candidate region : quotaLost) {
            if (region != null) {
                lost.add(region);
            }
        }
        lost.sort(Candidate.ORDER);
        return new SearchPass(spot, top, considered, feasible, new Removals(failedFirst),
                new Removals(ndFailedFirst), present(retiredExample), present(restrictedExample),
                unpricedRow < 0 ? Optional.empty()
                        : Optional.of(new SearchPass.Unpriced(unpricedRow, unpricedPreference, unpricedCount)),
                lost, present(unofferedExample), present(zoneExample));
    }

    /** Keeps the row as its region's best candidate lost to quota when it is. */
    private void lostToQuota(int row, Layout layout, double perNode) {
        Candidate candidate = candidate(row, layout, perNode);
        Candidate kept = quotaLost[index.region[row]];
        if (kept == null || Candidate.ORDER.compare(candidate, kept) < 0) {
            quotaLost[index.region[row]] = candidate;
        }
    }

    private Candidate candidate(int row, Layout layout, double perNode) {
        double total = perNode * layout.nodes();
        OptionalDouble hours = req.hoursOn(index, row);
        return new Candidate(row, index.sizeNames[index.sizeRank[row]], index.regionNames[index.region[row]], layout,
                perNode, total, hours, preference(row), primary(total, hours), secondary(total, hours),
                index.releaseYear[row], index.sizeRank[row], index.region[row]);
    }

    /**
     * The index in {@link #active} of the first constraint from {@code from} on that rejects the row, -1 when none
     * does; a row without a price skips the constraints that need one.
     */
    private int firstFailure(int row, Layout layout, double price, int from) {
        boolean priced = !Double.isNaN(price);
        long rejections = rowRejections[row];
        int end = from <= subscriptionFrom ? subscriptionFrom : active.length;
        for (int i = from; i < end; i++) {
            Constraint.OfCandidate check = candidateCheck[i];
            boolean rejected = check == null ? (rejections >>> position[i] & 1L) != 0
                    : (priced || !check.needsPrice()) && check.rejects(req, index, row, layout, price, spot);
            if (rejected) {
                return i;
            }
        }
        if (end == subscriptionFrom && end < active.length) {
            // The subscription's checks, at once: they share the lookup of the row's region.
            int failed = req.capacity().firstFailure(row, layout.nodes(), spot);
            return failed < 0 ? -1 : subscriptionFrom + failed;
        }
        return -1;
    }

    /** True when {@code row} comes before {@code other} by size name, then region; any row before none (-1). */
    private boolean earlier(int row, int other) {
        if (other < 0) {
            return true;
        }
        int c = Integer.compare(index.sizeRank[row], index.sizeRank[other]);
        return c != 0 ? c < 0 : index.region[row] < index.region[other];
    }

    /** Rule 9's preferences: 0 is preferred. */
    private int preference(int row) {
        if (req.gpu() && req.training()) {
            return index.group[row] == CatalogIndex.NC ? 1 : 0;
        }
        if (!req.training() && req.interconnect() == Interconnect.ANY) {
            return index.rdma[row] ? 1 : 0;
        }
        return 0;
    }

    /** The objective minimized first (see {@link Candidate#primary}). */
    private double primary(double total, OptionalDouble hours) {
        if (hours.isEmpty()) {
            return total;
        }
        return req.estimate().orElseThrow().minimizeTime() ? hours.getAsDouble() : total * hours.getAsDouble();
    }

    /** The objective minimized next (see {@link Candidate#secondary}). */
    private double secondary(double total, OptionalDouble hours) {
        return hours.isPresent() && req.estimate().orElseThrow().minimizeTime() ? total * hours.getAsDouble() : 0;
    }

    /**
     * Keeps the row if it is among the best {@link #KEEP} sizes: it replaces a worse row of its own size, or the worst
     * kept size when the list is full, and goes where {@link Candidate#ORDER} puts it.
     */
    private void offer(int row, Layout layout, double perNode) {
        double total = perNode * layout.nodes();
        OptionalDouble hours = req.hoursOn(index, row);
        double primary = primary(total, hours);
        int preference = preference(row);
        if (top.size() == KEEP && cannotBeat(preference, primary, top.get(KEEP - 1))) {
            // After the worst kept size by the first steps of the order, it is after every kept one, its own size's
            // included: most feasible rows end here, before the look for their size.
            return;
        }
        int same = -1;
        for (int i = 0; i < top.size(); i++) {
            if (top.get(i).sizeRank() == index.sizeRank[row]) {
                same = i;
                break;
            }
        }
        int replaced = same >= 0 ? same : top.size() == KEEP ? KEEP - 1 : -1;
        if (replaced >= 0 && cannotBeat(preference, primary, top.get(replaced))) {
            // Most feasible rows lose to the kept ones on the first steps of the order: no candidate is made for them.
            return;
        }
        Candidate candidate = candidate(row, layout, perNode);
        if (replaced >= 0) {
            if (Candidate.ORDER.compare(candidate, top.get(replaced)) >= 0) {
                return;
            }
            top.remove(replaced);
        }
        int at = top.size();
        while (at > 0 && Candidate.ORDER.compare(candidate, top.get(at - 1)) < 0) {
            at--;
        }
        top.add(at, candidate);
    }

    /**
     * True when a row with this preference and primary objective comes after {@code kept} by the first two steps of
     * {@link Candidate#ORDER}, so that the full comparison cannot put it first.
     */
    private static boolean cannotBeat(int preference, double primary, Candidate kept) {
        return preference > kept.preference()
                || preference == kept.preference() && Double.compare(primary, kept.primary()) > 0;
    }

    private static OptionalInt present(int row) {
        return row < 0 ? OptionalInt.empty() : OptionalInt.of(row);
    }
}
