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

/** Loading the embedded catalog snapshot from its resource (parse and build every entry), uncached. */
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
}
