package dev.gantry.benchmarks;

import dev.gantry.core.catalog.Catalog;
import dev.gantry.core.catalog.CatalogLoader;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Loading the embedded catalog snapshot from its resource, uncached, in a warm JVM: the compact form the build makes
 * (what {@code gantry plan} reads) and the CSV it is made from. {@link CatalogColdLoadComparison} compares the two
 * in fresh JVMs, where start-up actually pays.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.SampleTime)
@OutputTimeUnit(TimeUnit.MILLISECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(1)
public class CatalogLoadBenchmark {
    @Benchmark
    public Catalog loadSnapshot() {
        return CatalogLoader.loadEmbeddedUncached();
    }

    @Benchmark
    public Catalog loadSnapshotCsv() {
        return CatalogLoader.loadEmbeddedCsvUncached();
    }
}
