package dev.gantry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.OptionalDouble;
import org.junit.jupiter.api.Test;

class BudgetTest {
    @Test
    void anHourlyCeilingAloneIsWhatABudgetWasBeforeMaxTotal() {
        Budget hourly = new Budget(120);
        assertEquals(OptionalDouble.of(120), hourly.maxPerHour());
        assertEquals(OptionalDouble.empty(), hourly.maxTotal());
        assertEquals(new Budget(OptionalDouble.of(120), OptionalDouble.of(500)), hourly.withMaxTotal(500));
        assertEquals(new Budget(OptionalDouble.empty(), OptionalDouble.of(500)), Budget.total(500));
    }

    @Test
    void everyBadCeilingIsReportedAtOnceAndABudgetOfNeitherIsRefused() {
        GantryException both = assertThrows(GantryException.class,
                () -> new Budget(OptionalDouble.of(0), OptionalDouble.of(Double.NaN)));
        assertEquals(ErrorCode.SPEC_INVALID, both.code());
        assertEquals(List.of("maxPerHour: must be > 0 (USD per hour, all nodes), got 0",
                "maxTotal: must be > 0 (USD for the whole run, every attempt and node), got NaN; "
                        + "for example maxTotal: 50"),
                both.problems().stream().map(Problem::toString).toList());
        GantryException neither = assertThrows(GantryException.class,
                () -> new Budget(OptionalDouble.empty(), OptionalDouble.empty()));
        assertEquals(List.of("maxTotal: a budget needs maxPerHour (USD per hour, all nodes), maxTotal (USD for the "
                + "whole run) or both, got neither; for example budget: {maxTotal: 50}"),
                neither.problems().stream().map(Problem::toString).toList());
    }
}
