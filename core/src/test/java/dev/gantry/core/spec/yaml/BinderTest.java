package dev.gantry.core.spec.yaml;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.time.Duration;
import java.util.Optional;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class BinderTest {
    @Test
    void durations() {
        assertEquals(Optional.of(Duration.ofSeconds(30)), Binder.parseDuration("30s"));
        assertEquals(Optional.of(Duration.ofMinutes(30)), Binder.parseDuration("30m"));
        assertEquals(Optional.of(Duration.ofHours(2)), Binder.parseDuration("2h"));
        assertEquals(Optional.of(Duration.ofMinutes(90)), Binder.parseDuration("1h30m"));
        assertEquals(Optional.of(Duration.ofDays(1).plusSeconds(5)), Binder.parseDuration("1d5s"));
        assertEquals(Optional.empty(), Binder.parseDuration(""));
        assertEquals(Optional.empty(), Binder.parseDuration("30"));
        assertEquals(Optional.empty(), Binder.parseDuration("30m2h"));
        assertEquals(Optional.empty(), Binder.parseDuration("1.5h"));
    }

    @Test
    void sizesInGib() {
        assertEquals(OptionalDouble.of(80), Binder.parseSizeGib("80Gi"));
        assertEquals(OptionalDouble.of(80), Binder.parseSizeGib("80GiB"));
        assertEquals(OptionalDouble.of(80), Binder.parseSizeGib("80"));
        assertEquals(OptionalDouble.of(0.5), Binder.parseSizeGib("512Mi"));
        assertEquals(OptionalDouble.of(1536), Binder.parseSizeGib("1.5Ti"));
        assertEquals(OptionalDouble.empty(), Binder.parseSizeGib("80GB"));
        assertEquals(OptionalDouble.empty(), Binder.parseSizeGib("80 Gi"));
        assertEquals(OptionalDouble.empty(), Binder.parseSizeGib("-1Gi"));
    }

    @Test
    void pathsWalkUpToTheNearestWrittenParent() {
        Binder binder = new Binder("f.yaml");
        binder.remember("resources", new dev.gantry.api.SourceLocation("f.yaml", 3, 3));
        assertEquals(3, binder.locate("resources.gpus").line());
        assertEquals(1, binder.locate("command[0]").line());
        assertEquals("resources", FieldPath.parent("resources.gpus"));
        assertEquals("command", FieldPath.parent("command[0]"));
        assertEquals("", FieldPath.parent("spot"));
    }
}
