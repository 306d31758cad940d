package dev.gantry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class NearMissTest {
    @Test
    void suggestsWithinTwoEditsOrIgnoringCase() {
        assertEquals(Optional.of("gpus"), NearMiss.closest("gpuz", List.of("nodes", "gpus")));
        assertEquals(Optional.of("training"), NearMiss.closest("trainnig", List.of("training", "inference")));
        assertEquals(Optional.of("memoryGib"), NearMiss.closest("MEMORYGIB", List.of("gpuMemoryGib", "memoryGib")));
        assertEquals(Optional.empty(), NearMiss.closest("colour", List.of("phase", "model")));
    }

    @Test
    void tiesGoToTheSmallerDistanceThenTheFirstListed() {
        assertEquals(Optional.of("ab"), NearMiss.closest("ax", List.of("ab", "ac")));
        assertEquals(Optional.of("ac"), NearMiss.closest("ax", List.of("ac", "ab")));
        assertEquals(Optional.of("abdd"), NearMiss.closest("abd", List.of("abdd", "abc")));
        assertEquals(Optional.of("abc"), NearMiss.closest("abd", List.of("abcde", "abc")));
    }

    @Test
    void transpositionCountsAsOneEdit() {
        assertEquals(1, NearMiss.distance("ab", "ba"));
        assertEquals(Optional.of("spot"), NearMiss.closest("sopt", List.of("spot", "optimize")));
        assertEquals(2, NearMiss.distance("abcd", "badc"));
    }
}
