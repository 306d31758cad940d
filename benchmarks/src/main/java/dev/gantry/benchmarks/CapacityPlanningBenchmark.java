package dev.gantry.benchmarks;

import dev.gantry.api.Plan;
import dev.gantry.core.advisor.Advisor;
import dev.gantry.core.advisor.AdvisorSettings;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogEntry;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.core.catalog.refresh.SizeOffer;
import dev.gantry.core.quota.QuotaUsage;
import dev.gantry.core.quota.SubscriptionCapacity;
import dev.gantry.images.ImageCatalog;
import dev.gantry.model.PlanOverrides;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Planning with quotas already read beside today's planning, in one run: the workloads of {@link PlanningBenchmark}
 * over the full embedded catalog, {@code today} without a subscription and {@code quotas-read} with one whose every
 * region was read by an earlier plan of the invocation (every size offered in zones 1-3, quotas large enough for all,
 * so that the quota check runs on every row that passes the other constraints: the most it can cost). Target:
 * {@code quotas-read} within twice {@code today}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CapacityPlanningBenchmark {
    @Param({"gpu-training-multinode", "gpu-inference", "cpu-small-training"})
    public String workload;

    @Param({"today", "quotas-read"})
    public String capacity;

    private Advisor advisor;
    private dev.gantry.api.Workload subject;
    private Optional<SubscriptionCapacity> subscription;

    @Setup(Level.Trial)
    public void setUp() {
        Catalog catalog = CatalogLoader.embedded();
        advisor = new Advisor(catalog, ImageCatalog.builtIn(), AdvisorSettings.defaults());
        subject = PlanningBenchmark.workload(workload);
        subscription = capacity.equals("today") ? Optional.empty() : Optional.of(everythingOffered(catalog));
        // The first plan reads every region the search reaches; the measured ones find them read.
        advisor.plan(subject, PlanOverrides.none(), subscription);
    }

    /** Every catalog size offered in every region in zones 1-3, each quota 100,000 vCPUs with 10 in use. */
    static SubscriptionCapacity everythingOffered(Catalog catalog) {
        Map<String, List<SizeOffer>> offers = new HashMap<>();
        Map<String, Map<String, QuotaUsage>> usages = new HashMap<>();
        for (CatalogEntry entry : catalog.entries()) {
            String family = "standard" + entry.size().family() + "Family";
            offers.computeIfAbsent(entry.region(), r -> new ArrayList<>()).add(new SizeOffer(entry.size().name(),
                    family, entry.region(), OptionalInt.of(entry.size().vcpus()), OptionalInt.empty(),
                    OptionalDouble.empty(), OptionalInt.empty(), Set.of(), Optional.empty(), Optional.empty(),
                    Optional.empty(), List.of("1", "2", "3")));
            Map<String, QuotaUsage> region = usages.computeIfAbsent(entry.region(), r -> new HashMap<>());
            for (String quota : List.of("cores", "lowPriorityCores", family)) {
                region.put(quota.toLowerCase(Locale.ROOT), new QuotaUsage(quota, quota, 10, 100_000));
            }
        }
        // A clock that stands still: the usages read by the first plan stay fresh for every measured one.
        Clock clock = Clock.fixed(Instant.parse("2026-12-01T00:00:00Z"), ZoneOffset.UTC);
        return new SubscriptionCapacity("benchmark", regions -> regions.stream()
                .flatMap(region -> offers.getOrDefault(region, List.of()).stream()).toList(),
                region -> usages.getOrDefault(region, Map.of()), clock);
    }

    @Benchmark
    public Plan plan() {
        return advisor.plan(subject, PlanOverrides.none(), subscription);
    }
}
