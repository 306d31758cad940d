package dev.gantry.core.text;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class DidYouMeanTest {
    private final List<String> fields = List.of("phase", "model", "resources", "command", "checkpoint");

    @Test
    void suggestsTranspositionsDeletionsAndCaseSlips() {
        assertEquals(Optional.of("phase"), DidYouMean.closest("pahse", fields));
        assertEquals(Optional.of("command"), DidYouMean.closest("comand", fields));
        assertEquals(Optional.of("model"), DidYouMean.closest("Model", fields));
    }

    @Test
    void staysQuietWhenNothingIsClose() {
        assertEquals(Optional.empty(), DidYouMean.closest("gpus", fields));
        assertEquals("", DidYouMean.hint("xyz", fields));
    }

    @Test
    void distanceCountsAnAdjacentSwapAsOneEdit() {
        assertEquals(1, DidYouMean.distance("ab", "ba"));
        assertEquals(3, DidYouMean.distance("kitten", "sitting"));
    }
}
