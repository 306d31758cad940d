package dev.gantry.api;

/** What the advisor minimizes among feasible candidates. Specs spell the constants in lower case. */
public enum Optimize {
    /** The price per hour, or the cost to completion when a runtime estimate is given. */
    COST,
    /** The estimated hours to completion; ties broken by cost. */
    TIME;
}
