package dev.gantry.benchmarks;

import dev.gantry.api.Checkpoint;
import dev.gantry.api.Interconnect;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Resources;
import dev.gantry.api.SpotPolicy;
import dev.gantry.api.Workload;
import dev.gantry.core.advisor.Advisor;
import dev.gantry.core.advisor.AdvisorSettings;
import dev.gantry.model.PlanOverrides;
import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogLoader;
import dev.gantry.images.ImageCatalog;
import java.time.Duration;
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
 * Planning one workload over the full embedded catalog (every region), once the catalog is loaded. Target: p50 under
 * 50 µs. Sample-time mode reports the percentiles.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class PlanningBenchmark {
    @Param({"gpu-training-multinode", "gpu-inference", "cpu-small-training"})
    public String workload;

    private Advisor advisor;
    private Workload subject;

    @Setup(Level.Trial)
    public void setUp() {
        Catalog catalog = CatalogLoader.embedded();
        advisor = new Advisor(catalog, ImageCatalog.builtIn(), AdvisorSettings.defaults());
        subject = workload(workload);
        advisor.plan(subject, PlanOverrides.none());
    }

    /** The benchmark's workloads by name, shared with {@link CapacityPlanningBenchmark}. */
    static Workload workload(String name) {
        return switch (name) {
            case "gpu-training-multinode" -> Workload.builder("llm-train").phase(Phase.TRAINING)
                    .model(ModelClass.GENERATIVE)
                    .resources(Resources.builder().gpus(8).nodes(2).interconnect(Interconnect.INFINIBAND).build())
                    .checkpoint(new Checkpoint("/mnt/ckpt", Duration.ofMinutes(30))).spot(SpotPolicy.ALLOWED)
                    .command("torchrun", "train.py").build();
            case "gpu-inference" -> Workload.builder("llm-serve").phase(Phase.INFERENCE).model(ModelClass.GENERATIVE)
                    .resources(Resources.builder().gpus(1).gpuMemoryGib(40).build()).spot(SpotPolicy.ALLOWED)
                    .command("serve").build();
            case "cpu-small-training" -> Workload.builder("tabular").phase(Phase.TRAINING).model(ModelClass.SMALL)
                    .resources(Resources.builder().vcpus(8).memoryGib(32).build()).command("python3", "fit.py")
                    .build();
            default -> throw new IllegalArgumentException(name);
        };
    }

    @Benchmark
    public Plan plan() {
        return advisor.plan(subject, PlanOverrides.none());
    }
}
