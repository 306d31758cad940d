package dev.gantry.core.advisor;

import dev.gantry.model.PlanOverrides;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.Architecture;
import dev.gantry.api.Budget;
import dev.gantry.api.Checkpoint;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.ModelSize;
import dev.gantry.api.Optimize;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Precision;
import dev.gantry.api.Resources;
import dev.gantry.api.RuntimeEstimate;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.GpuModel;
import dev.gantry.core.quota.SubscriptionCapacity;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.List;
import java.util.Optional;
import java.util.Random;
import java.util.function.Function;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/**
 * Thousands of random workloads over the embedded catalog. For each, an independent brute-force reading of the
 * sizing rules (written here from the issue's text, sharing no code with the advisor's search) lists every feasible
 * candidate, with the configuration's defaults and the command line's overrides applied by the documented
 * precedence; the advisor's choice must be feasible, no feasible candidate may beat it under the objective, and when
 * the advisor finds nothing the brute force must find nothing either.
 */
class AdvisorPropertyTest {
    private static final int WORKLOADS = 3000;
    private static final long SEED = 20261129L;
    private static final Pattern FAMILY = Pattern.compile("^(?:Standard|Basic)_([A-Z]+)\\d.*");
    private static final Pattern CONSTRAINED = Pattern.compile("^Standard_[A-Z]+\\d+-(\\d+).*");
    private static final double GIB = 1073741824.0;

    private final Catalog catalog = CatalogLoader.embedded();
    private final List<String> regions = new ArrayList<>(catalog.regions());
    /** The per-size facts the brute force reads from names, worked out once rather than per workload. */
    private final List<Row> rows = catalog.entries().stream().map(this::row).toList();

    record Row(CatalogEntry entry, String family, boolean retired, int usableVcpus) {
    }

    private Row row(CatalogEntry e) {
        String name = e.size().name();
        Matcher m = FAMILY.matcher(name);
        Matcher constrained = CONSTRAINED.matcher(name);
        int vcpus = constrained.matches()
                ? Math.min(e.size().vcpus(), Integer.parseInt(constrained.group(1))) : e.size().vcpus();
        return new Row(e, m.matches() ? m.group(1) : "", catalog.retirement(name).isPresent(), vcpus);
    }

    @Test
    void choiceIsFeasibleAndNothingFeasibleIsBetter() {
        Outcomes outcomes = planRandomly(new Random(SEED), random -> Optional.empty(), Optional.empty());
        // The generator must exercise every outcome, or the test proves little.
        assertTrue(outcomes.planned > WORKLOADS / 4, "only " + outcomes.planned + " workloads were plannable");
        assertTrue(outcomes.infeasible > 0, "no workload was infeasible");
        assertTrue(outcomes.invalid > 0, "no workload was invalid");
    }

    /**
     * The same with a random subscription per workload (sizes not offered or restricted, zones restricted, quotas
     * and usages at random, some not reported) and random zones asked: the plan equals the brute-force optimum over
     * the catalog restricted to what the quotas and zones allow, names the zones the brute force finds, and reads
     * each region's usages at most once.
     */
    @Test
    void withQuotasAndZonesTheChoiceIsTheOptimumOfWhatTheSubscriptionAllows() {
        List<FakeSubscription> subscriptions = new ArrayList<>();
        Random random = new Random(SEED + 1);
        for (int i = 0; i < 40; i++) {
            subscriptions.add(FakeSubscription.random(random, catalog));
        }
        Outcomes outcomes = planRandomly(random, r -> Optional.of(subscriptions.get(r.nextInt(subscriptions.size()))),
                Optional.empty());
        assertTrue(outcomes.planned > WORKLOADS / 5, "only " + outcomes.planned + " workloads were plannable");
        assertTrue(outcomes.lostToQuota > WORKLOADS / 20, "quota decided only " + outcomes.lostToQuota + " plans");
        assertTrue(outcomes.lostToZones > 0, "zones decided no plan");
        assertTrue(outcomes.infeasible > 0, "no workload was infeasible");
    }

    /**
     * Without a subscription to ask, over a catalog whose refresh recorded zones at random (some rows none, some no
     * zone), with random zones asked: the plan equals the brute-force optimum over the catalog restricted to the rows
     * recorded in a zone asked (or recording none), and names the zones the brute force finds. Half the workloads are
     * also planned with a subscription, whose live zones must win over the catalog's.
     */
    @Test
    void withCatalogZonesAndNoSubscriptionTheChoiceIsTheOptimumOfWhatTheCatalogRecords() {
        Random random = new Random(SEED + 2);
        RecordedZones recorded = RecordedZones.random(random, catalog);
        List<FakeSubscription> subscriptions = new ArrayList<>();
        for (int i = 0; i < 10; i++) {
            subscriptions.add(FakeSubscription.random(random, catalog));
        }
        Outcomes outcomes = planRandomly(random, r -> r.nextBoolean() ? Optional.empty()
                : Optional.of(subscriptions.get(r.nextInt(subscriptions.size()))), Optional.of(recorded));
        assertTrue(outcomes.planned > WORKLOADS / 5, "only " + outcomes.planned + " workloads were plannable");
        assertTrue(outcomes.lostToZones > 0, "zones decided no plan");
        assertTrue(outcomes.lostToCatalogZones > 0, "the catalog's zones decided no plan");
        assertTrue(outcomes.infeasible > 0, "no workload was infeasible");
    }

    /** How the random plans ended, and how often the subscription changed the answer. */
    static final class Outcomes {
        int planned;
        int infeasible;
        int invalid;
        int lostToQuota;
        int lostToZones;
        /** Plans without a subscription whose choice the catalog's zones changed. */
        int lostToCatalogZones;
    }

    /**
     * Plans {@link #WORKLOADS} random workloads, each with a subscription from {@code subscriptions} (or none) over the
     * embedded catalog, or over {@code recorded}'s catalog when given; zones are asked at random when either can
     * check them.
     */
    private Outcomes planRandomly(Random random, Function<Random, Optional<FakeSubscription>> subscriptions,
                                  Optional<RecordedZones> recorded) {
        // Three configurations: none, default regions, and a default spot policy.
        List<AdvisorSettings> configurations = List.of(AdvisorSettings.defaults(),
                new AdvisorSettings(List.of("eastus", "westus2"), Optional.empty(), Optional.empty()),
                new AdvisorSettings(List.of(), Optional.of(SpotPolicy.ALLOWED), Optional.empty()));
        List<Advisor> advisors = configurations.stream()
                .map(settings -> new Advisor(recorded.map(zones -> zones.catalog).orElse(catalog), new FakeImages(),
                        settings, GoldenPlansTest.CLOCK)).toList();
        Outcomes outcomes = new Outcomes();
        for (int i = 0; i < WORKLOADS; i++) {
            Optional<FakeSubscription> subscription = subscriptions.apply(random);
            Workload base = randomWorkload(random, i);
            Workload workload = (subscription.isPresent() || recorded.isPresent()) && random.nextInt(3) == 0
                    ? withRandomZones(random, base) : base;
            int configuration = random.nextInt(configurations.size());
            AdvisorSettings settings = configurations.get(configuration);
            PlanOverrides overrides = randomOverrides(random);
            Context context = new Context(workload, settings, overrides, subscription, recorded);
            String described = describe(workload) + " settings=" + settings + " overrides=" + overrides;
            subscription.ifPresent(fake -> fake.usageReads.clear());
            Optional<SubscriptionCapacity> capacity = subscription.map(FakeSubscription::capacity);
            Plan plan;
            try {
                plan = advisors.get(configuration).plan(workload, overrides, capacity);
            } catch (GantryException e) {
                if (e.code() == ErrorCode.SPEC_INVALID) {
                    assertTrue(context.preferredWithoutCheckpoint(), () -> "unexpected " + e.getMessage());
                    outcomes.invalid++;
                    continue;
                }
                assertEquals(ErrorCode.NO_FEASIBLE_VM, e.code(), e.getMessage());
                List<Candidate> expected = bruteForce(context);
                assertTrue(expected.isEmpty(), () -> "advisor found nothing for " + described
                        + " but the brute force found " + expected.get(0) + "; advisor said: " + e.getMessage());
                outcomes.infeasible++;
                continue;
            }
            assertTrue(!context.preferredWithoutCheckpoint(), "preferred training without checkpoint was planned");
            List<Candidate> expected = bruteForce(context);
            outcomes.planned++;
            if (expected.isEmpty()) {
                fail("advisor chose " + plan.vmSize().name() + " for " + described
                        + " but the brute force finds nothing feasible");
            }
            Candidate best = expected.get(0);
            Candidate chosen = expected.stream()
                    .filter(c -> c.entry.size().name().equals(plan.vmSize().name())
                            && c.entry.region().equals(plan.region()))
                    .findFirst().orElse(null);
            assertTrue(chosen != null, () -> "advisor chose " + plan.vmSize().name() + " in " + plan.region() + " ("
                    + (plan.spot() ? "spot" : "on-demand") + ") for " + described
                    + ", which the brute force does not find feasible and preferred; its best is " + best);
            assertEquals(best.spot, plan.spot(), described);
            assertEquals(chosen.nodes, plan.nodes(), described);
            assertEquals(chosen.price * chosen.nodes, plan.pricePerHour().total(), 1e-9);
            // No feasible candidate is better under the objective (a relative tolerance for rounding only).
            assertTrue(chosen.primary <= best.primary * (1 + 1e-12), () -> "advisor chose " + chosen + " but "
                    + best + " is better for " + described);
            assertEquals(best.entry.size().name() + "@" + best.entry.region(),
                    chosen.entry.size().name() + "@" + chosen.entry.region(), "tie-breaks differ for " + described);
            if (subscription.isPresent()) {
                FakeSubscription fake = subscription.get();
                assertEquals(fake.zones(workload, chosen.entry), plan.zones(), "zones for " + described);
                fake.usageReads.forEach((region, reads) -> assertEquals(1, reads.intValue(),
                        () -> "usages of " + region + " read " + reads + " times for " + described));
                if (!sameBest(bruteForce(context.unlimited()), best)) {
                    outcomes.lostToQuota++;
                }
                if (workload != base && !sameBest(bruteForce(context.withWorkload(base)), best)) {
                    outcomes.lostToZones++;
                }
            } else if (recorded.isPresent()) {
                assertEquals(recorded.get().zones(workload, chosen.entry), plan.zones(), "zones for " + described);
                if (workload != base && !sameBest(bruteForce(context.withWorkload(base)), best)) {
                    outcomes.lostToZones++;
                    outcomes.lostToCatalogZones++;
                }
            }
        }
        return outcomes;
    }

    private static boolean sameBest(List<Candidate> candidates, Candidate best) {
        return !candidates.isEmpty() && candidates.get(0).toString().equals(best.toString());
    }

    /** Zones asked in one to three of the regions the workload may use. */
    private Workload withRandomZones(Random random, Workload workload) {
        List<String> allowed = workload.regions().isEmpty() ? regions : workload.regions();
        Workload.Builder builder = workload.toBuilder();
        for (String region : allowed) {
            if (random.nextInt(2) == 0) {
                List<String> zones = new ArrayList<>(List.of("1", "2", "3"));
                Collections.shuffle(zones, random);
                builder.zones(region, zones.subList(0, 1 + random.nextInt(3)));
            }
        }
        return builder.build();
    }

    /**
     * What one plan is made from: the workload, the configuration, the command line's overrides and the subscription
     * asked, if any.
     */
    record Context(Workload workload, AdvisorSettings settings, PlanOverrides overrides,
                   Optional<FakeSubscription> subscription, Optional<RecordedZones> recorded) {
        /** The same subscription with every quota unlimited. */
        Context unlimited() {
            return new Context(workload, settings, overrides, subscription.map(FakeSubscription::unlimited), recorded);
        }

        /** The same but for the workload. */
        Context withWorkload(Workload other) {
            return new Context(other, settings, overrides, subscription, recorded);
        }

        List<String> regions() {
            if (!overrides.regions().isEmpty()) {
                return overrides.regions();
            }
            if (!workload.regions().isEmpty()) {
                return workload.regions();
            }
            return settings.defaultRegions();
        }

        SpotPolicy spot() {
            if (overrides.spot().isPresent()) {
                return overrides.spot().get();
            }
            return workload.spot().orElseGet(() -> settings.defaultSpot().orElse(SpotPolicy.NEVER));
        }

        boolean preferredWithoutCheckpoint() {
            return spot() == SpotPolicy.PREFERRED && workload.phase() == Phase.TRAINING
                    && workload.checkpoint().isEmpty();
        }
    }

    private PlanOverrides randomOverrides(Random random) {
        List<String> chosen = new ArrayList<>();
        if (random.nextInt(6) == 0) {
            chosen.add(pick(random, regions.toArray(new String[0])));
        }
        Optional<SpotPolicy> spot = random.nextInt(6) == 0 ? Optional.of(pick(random, SpotPolicy.values()))
                : Optional.empty();
        return new PlanOverrides(chosen, spot);
    }

    /** A candidate the brute force finds feasible, with its objective. */
    record Candidate(CatalogEntry entry, boolean spot, double price, int nodes, int preference, double primary,
                     double secondary, int year) {
        @Override
        public String toString() {
            return entry.size().name() + "@" + entry.region() + (spot ? " spot " : " on-demand ") + price + " × "
                    + nodes + " (objective " + primary + ")";
        }
    }

    /** Every feasible, preferred candidate in the order the rules rank them, from the issue's text. */
    private List<Candidate> bruteForce(Context context) {
        Workload w = context.workload();
        Resources r = w.resources();
        boolean gpu = r.gpus().isPresent() ? r.gpus().getAsInt() > 0 : w.model() != ModelClass.SMALL;
        boolean training = w.phase() == Phase.TRAINING;
        boolean wantSpot = switch (context.spot()) {
            case NEVER -> false;
            case ALLOWED -> !training || w.checkpoint().isPresent();
            case PREFERRED -> true;
        };
        List<String> regions = context.regions();
        Optional<FakeSubscription> subscription = context.subscription();
        // What is read live wins: the catalog's zones count only without a subscription to ask.
        Optional<RecordedZones> recorded = subscription.isPresent() ? Optional.empty() : context.recorded();
        List<Candidate> result = wantSpot ? feasible(w, regions, gpu, training, true, subscription, recorded)
                : List.of();
        if (result.isEmpty()) {
            result = feasible(w, regions, gpu, training, false, subscription, recorded);
        }
        if (result.isEmpty()) {
            return result;
        }
        int bestPreference = result.stream().mapToInt(Candidate::preference).min().getAsInt();
        return result.stream().filter(c -> c.preference == bestPreference)
                .sorted(Comparator.comparingDouble(Candidate::primary)
                        .thenComparingDouble(Candidate::secondary)
                        .thenComparing(Comparator.comparingInt(Candidate::year).reversed())
                        .thenComparing(c -> c.entry.size().name())
                        .thenComparing(c -> c.entry.region()))
                .collect(Collectors.toList());
    }

    private List<Candidate> feasible(Workload w, List<String> regions, boolean gpu, boolean training,
                                     boolean spot, Optional<FakeSubscription> subscription,
                                     Optional<RecordedZones> recorded) {
        Resources r = w.resources();
        List<Candidate> out = new ArrayList<>();
        for (Row row : rows) {
            CatalogEntry e = row.entry();
            String family = row.family();
            if (gpu) {
                if (!family.equals("ND") && !family.equals("NC")) {
                    continue;
                }
                if (training && family.equals("NC") && r.interconnect() == Interconnect.INFINIBAND) {
                    continue;
                }
            } else if (training ? !(family.equals("E") || family.equals("M")) : !family.equals("F")) {
                continue;
            }
            if (row.retired() || e.restriction().isPresent()
                    || e.size().architecture() == Architecture.ARM64) {
                continue;
            }
            if (e.price(spot).isEmpty() || !(e.price(spot).getAsDouble() > 0)) {
                continue;
            }
            double price = e.price(spot).getAsDouble();
            if (!regions.isEmpty() && !regions.contains(e.region())) {
                continue;
            }
            int nodes = r.nodes();
            if (gpu) {
                if (e.size().gpu().isEmpty()) {
                    continue;
                }
                int count = e.size().gpu().get().count();
                double memory = e.size().gpu().get().memoryGib();
                int wanted;
                if (r.gpus().isPresent()) {
                    wanted = r.gpus().getAsInt();
                } else if (w.modelSize().isPresent()) {
                    ModelSize size = w.modelSize().get();
                    double need = training ? size.parameters() * 20 / GIB
                            : size.parameters() * size.precision().bytesPerParameter() * 1.2 / GIB;
                    wanted = 8;
                    for (int c : new int[] {1, 2, 4, 8}) {
                        if (c * memory * nodes >= need) {
                            wanted = c;
                            break;
                        }
                    }
                    if (wanted == 8) {
                        nodes = Math.max(nodes, (int) Math.ceil(need / (8 * memory)));
                    }
                } else {
                    wanted = 1;
                }
                if (count != wanted || nodes > Resources.MAX_NODES) {
                    continue;
                }
                if (memory < r.gpuMemoryGib().orElse(0)) {
                    continue;
                }
                if (r.gpuVendor() != GpuVendor.ANY && e.size().gpu().get().vendor() != r.gpuVendor()) {
                    continue;
                }
            }
            if (row.usableVcpus() < r.vcpus().orElse(2) || e.size().memoryGib() < r.memoryGib().orElse(0)) {
                continue;
            }
            boolean rdmaNeeded = r.interconnect() == Interconnect.INFINIBAND
                    || gpu && training && nodes > 1 && r.interconnect() != Interconnect.ETHERNET;
            if (rdmaNeeded && !e.size().rdma()) {
                continue;
            }
            double tflops = e.gpuModel().map(GpuModel::tensorTflops).orElse(0.0);
            if (w.estimate().isPresent() && gpu && !(tflops > 0)) {
                continue;
            }
            if (w.budget().isPresent()
                    && price * nodes > w.budget().get().maxPerHour().orElse(Double.POSITIVE_INFINITY)) {
                continue;
            }
            if (w.estimate().isPresent() && w.budget().isPresent() && w.budget().get().maxTotal().isPresent()) {
                double reference = catalog.gpuModel(w.estimate().get().gpu()).orElseThrow().tensorTflops();
                double hours = gpu ? w.estimate().get().hours() * reference / tflops : w.estimate().get().hours();
                if (price * nodes * hours > w.budget().get().maxTotal().getAsDouble()) {
                    continue;
                }
            }
            int vmCount = nodes;
            if (subscription.isPresent() && !subscription.get().allows(w, e, vmCount, spot)) {
                continue;
            }
            if (recorded.isPresent() && !recorded.get().allows(w, e)) {
                continue;
            }
            int preference = gpu && training ? (family.equals("NC") ? 1 : 0)
                    : !training && r.interconnect() == Interconnect.ANY && e.size().rdma() ? 1 : 0;
            double total = price * nodes;
            double primary = total;
            double secondary = 0;
            if (w.estimate().isPresent()) {
                double reference = catalog.gpuModel(w.estimate().get().gpu()).orElseThrow().tensorTflops();
                double hours = gpu ? w.estimate().get().hours() * reference / tflops : w.estimate().get().hours();
                if (w.optimize() == Optimize.TIME) {
                    primary = hours;
                    secondary = total * hours;
                } else {
                    primary = total * hours;
                }
            }
            int year = e.gpuModel().map(GpuModel::releaseYear).orElse(0);
            out.add(new Candidate(e, spot, price, nodes, preference, primary, secondary, year));
        }
        return out;
    }

    private Workload randomWorkload(Random random, int i) {
        Phase phase = pick(random, Phase.values());
        ModelClass model = pick(random, ModelClass.values());
        Resources.Builder resources = Resources.builder();
        int gpuChoice = random.nextInt(10);
        boolean cpuOnly = gpuChoice == 0;
        if (cpuOnly) {
            resources.gpus(0);
        } else if (gpuChoice <= 4) {
            resources.gpus(pick(random, new Integer[] {1, 1, 2, 4, 8}));
        }
        if (!cpuOnly && random.nextInt(3) == 0) {
            resources.gpuMemoryGib(pick(random, new Double[] {16.0, 24.0, 40.0, 80.0, 100.0}));
        }
        if (!cpuOnly && random.nextInt(4) == 0) {
            resources.gpuVendor(pick(random, new GpuVendor[] {GpuVendor.NVIDIA, GpuVendor.AMD}));
        }
        if (random.nextBoolean()) {
            resources.vcpus(pick(random, new Integer[] {1, 2, 4, 8, 16, 24, 32, 64, 128}));
        }
        if (random.nextBoolean()) {
            resources.memoryGib(pick(random, new Double[] {4.0, 16.0, 64.0, 200.0, 500.0}));
        }
        resources.nodes(1 + (random.nextInt(3) == 0 ? random.nextInt(4) : 0));
        resources.interconnect(pick(random, Interconnect.values()));
        Workload.Builder w = Workload.builder("w" + i).phase(phase).model(model).command("run")
                .resources(resources.build());
        if (random.nextInt(3) == 0) {
            w.modelSize(new ModelSize(pick(random, new Double[] {1e8, 1e9, 7e9, 13e9, 70e9, 180e9, 405e9}),
                    pick(random, Precision.values())));
        }
        boolean checkpoint = random.nextBoolean();
        if (checkpoint) {
            w.checkpoint(new Checkpoint("/ckpt", Duration.ofMinutes(30)));
        }
        SpotPolicy spot = pick(random, SpotPolicy.values());
        if (spot == SpotPolicy.PREFERRED && phase == Phase.TRAINING && !checkpoint) {
            spot = SpotPolicy.ALLOWED;
        }
        if (random.nextInt(4) != 0) {
            w.spot(spot); // else unset: the configuration's default, or never, applies
        }
        if (random.nextInt(3) == 0) {
            List<String> chosen = new ArrayList<>();
            for (String region : regions) {
                if (random.nextInt(3) == 0) {
                    chosen.add(region);
                }
            }
            if (random.nextInt(10) == 0) {
                chosen.add("uksouth");
            }
            w.regions(chosen);
        }
        int budget = random.nextInt(8);
        if (budget < 2) {
            w.budget(new Budget(pick(random, new Double[] {0.05, 0.5, 5.0, 20.0, 100.0, 500.0})));
        } else if (budget < 4) {
            // A budget to completion, alone or with one per hour: with an estimate it removes sizes too dear to finish.
            Budget total = Budget.total(pick(random, new Double[] {1.0, 20.0, 200.0, 2000.0, 20000.0}));
            w.budget(budget == 2 ? total : new Budget(pick(random, new Double[] {5.0, 100.0}))
                    .withMaxTotal(total.maxTotal().getAsDouble()));
        }
        if (random.nextInt(3) == 0) {
            w.estimate(new RuntimeEstimate(1 + random.nextInt(100), pick(random,
                    new String[] {"A100-80GB", "V100", "H100", "T4", "A10"})));
        }
        w.optimize(random.nextInt(4) == 0 ? Optimize.TIME : Optimize.COST);
        return w.build();
    }

    private static <T> T pick(Random random, T[] values) {
        return values[random.nextInt(values.length)];
    }

    private static String describe(Workload w) {
        return w.name() + " " + w.phase() + " " + w.model() + " " + w.resources() + " modelSize=" + w.modelSize()
                + " spot=" + w.spot() + " checkpoint=" + w.checkpoint().isPresent() + " regions=" + w.regions()
                + " budget=" + w.budget() + " estimate=" + w.estimate() + " optimize=" + w.optimize();
    }

}
