package dev.gantry.core.advisor;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.OptionalDouble;
import java.util.Random;
import org.junit.jupiter.api.Test;

/** Rule 9's order over candidates: preference, objective, then the explicit tie-breaks. */
class CandidateTest {
    private static final Layout ONE = new Layout(1, 1);

    private static Candidate candidate(String name, int preference, double primary, double secondary, int year,
                                       int sizeRank, int regionId) {
        return new Candidate(0, name, "region" + regionId, ONE, primary, primary, OptionalDouble.empty(), preference, primary,
                secondary, year, sizeRank, regionId);
    }

    @Test
    void ordersByPreferenceThenObjectiveThenNewerGpuThenSizeNameThenRegion() {
        List<Candidate> expected = List.of(
                candidate("preferred-but-dear", 0, 9, 0, 2018, 9, 9),
                candidate("cheapest", 1, 1, 0, 2018, 8, 8),
                candidate("same-price-lower-secondary", 1, 2, 1, 2018, 7, 7),
                candidate("same-price-newer-gpu", 1, 2, 2, 2023, 6, 6),
                candidate("same-price-older-gpu-first-name", 1, 2, 2, 2020, 1, 5),
                candidate("same-price-older-gpu-second-name-first-region", 1, 2, 2, 2020, 2, 0),
                candidate("same-price-older-gpu-second-name-second-region", 1, 2, 2, 2020, 2, 1));
        List<Candidate> shuffled = new ArrayList<>(expected);
        Collections.shuffle(shuffled, new Random(7));
        shuffled.sort(Candidate.ORDER);
        assertEquals(expected.stream().map(Candidate::size).toList(), shuffled.stream().map(Candidate::size).toList());
    }

    @Test
    void noTwoRowsOfACatalogCompareEqual() {
        Candidate a = candidate("a", 0, 1, 0, 2020, 3, 1);
        Candidate b = candidate("b", 0, 1, 0, 2020, 3, 2);
        assertEquals(-1, Integer.signum(Candidate.ORDER.compare(a, b)));
        assertEquals(1, Integer.signum(Candidate.ORDER.compare(b, a)));
        assertEquals(0, Candidate.ORDER.compare(a, a));
    }
}
