package dev.gantry.api.backend;

import dev.gantry.api.HourlyPrice;
import java.time.Instant;
import java.util.Objects;
import java.util.Optional;

/**
 * Something a backend created that has nothing to do and still costs money, or will when it next scales, as
 * {@link Backend#idleResources()} reports it (SPI v2): a Batch pool whose job has had no task to run for the idle
 * timeout, a preempted Spot node still counted in a pool. {@link Backend#release} removes it. The backend names it in
 * its own words; core and the CLI only show it and hand it back.
 *
 * @param kind what it is, in the orchestrator's word ({@code pool}, {@code node}, {@code job}); not blank
 * @param id the orchestrator's id of it, unique for its kind and {@link #location()}; not blank
 * @param location where it is (an account, a region, a cluster) when the backend has several places; empty when the
 *     id alone names it
 * @param reason why it is idle, for a person: what it waited for and since when ("no active or running task for 1h")
 * @param idleSince when it became idle, where the backend knows
 * @param costPerHour what it costs while it stays, where the backend knows (a pool at zero nodes costs nothing per
 *     hour but still holds its quota)
 */
public record IdleResource(String kind, String id, Optional<String> location, String reason,
        Optional<Instant> idleSince, Optional<HourlyPrice> costPerHour) {

    /**
     * Checks that the texts are not blank.
     *
     * @param kind what it is
     * @param id its id
     * @param location where it is, or empty
     * @param reason why it is idle
     * @param idleSince since when, or empty
     * @param costPerHour what it costs, or empty
     * @throws NullPointerException when a component is null
     * @throws IllegalArgumentException when {@code kind}, {@code id}, {@code reason} or a present location is blank
     */
    public IdleResource {
        requireText(kind, "kind");
        requireText(id, "id");
        Objects.requireNonNull(location, "location");
        requireText(reason, "reason");
        Objects.requireNonNull(idleSince, "idleSince");
        Objects.requireNonNull(costPerHour, "costPerHour");
        location.ifPresent(value -> requireText(value, "location"));
    }

    /**
     * An idle resource at the backend's one place, with no time or price known.
     *
     * @param kind what it is, e.g. {@code pool}
     * @param id the orchestrator's id of it
     * @param reason why it is idle, for a person
     * @return the resource, without location, time or price
     */
    public static IdleResource of(String kind, String id, String reason) {
        return new IdleResource(kind, id, Optional.empty(), reason, Optional.empty(), Optional.empty());
    }

    /**
     * This resource at a place.
     *
     * @param value where it is, e.g. an account; not blank
     * @return a copy with that location
     */
    public IdleResource withLocation(String value) {
        return new IdleResource(kind, id, Optional.of(value), reason, idleSince, costPerHour);
    }

    /**
     * This resource with the time it became idle.
     *
     * @param value when it became idle
     * @return a copy with that time
     */
    public IdleResource withIdleSince(Instant value) {
        return new IdleResource(kind, id, location, reason, Optional.of(value), costPerHour);
    }

    /**
     * This resource with what it costs while it stays.
     *
     * @param value its price per hour
     * @return a copy with that price
     */
    public IdleResource withCostPerHour(HourlyPrice value) {
        return new IdleResource(kind, id, location, reason, idleSince, Optional.of(value));
    }

    /**
     * Whether {@code other} is the same resource: the same kind, id and location, whatever is said about it.
     *
     * @param other another report, e.g. from a later {@link Backend#idleResources()}
     * @return true when both name the same resource
     */
    public boolean sameResourceAs(IdleResource other) {
        return kind.equals(other.kind) && id.equals(other.id) && location.equals(other.location);
    }

    /** {@return the resource as messages name it: {@code pool gantry-d4-abc (acct-eastus)}, the location in brackets} */
    public String describe() {
        return kind + " " + id + location.map(value -> " (" + value + ")").orElse("");
    }

    private static void requireText(String value, String name) {
        Objects.requireNonNull(value, name);
        if (value.isBlank()) {
            throw new IllegalArgumentException("IdleResource." + name + " must not be blank");
        }
    }
}
