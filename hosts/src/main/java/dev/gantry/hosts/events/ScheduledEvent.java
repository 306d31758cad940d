package dev.gantry.hosts.events;

import java.util.List;
import java.util.Locale;

/**
 * One entry of the Azure Instance Metadata Service's Scheduled Events document, with the field names of the
 * published contract ({@code EventId}, {@code EventType}, ...).
 *
 * @param eventId the id Azure uses to acknowledge the event
 * @param eventType {@code Preempt}, {@code Reboot}, {@code Redeploy}, {@code Freeze} or {@code Terminate}; kept as
 *     text so a type Azure adds later is carried, not rejected
 * @param resourceType {@code VirtualMachine}
 * @param resources the VM names (instance names in a scale set) the event affects
 * @param eventStatus {@code Scheduled} or {@code Started}
 * @param notBefore when the event may start, as Azure writes it ({@code Mon, 19 Sep 2016 18:29:47 GMT}); empty once
 *     it has started
 * @param description Azure's free text
 * @param eventSource {@code Platform} or {@code User}
 * @param durationInSeconds the expected interruption, -1 when unknown or not given
 */
public record ScheduledEvent(String eventId, String eventType, String resourceType, List<String> resources,
                             String eventStatus, String notBefore, String description, String eventSource,
                             long durationInSeconds) {
    public static final String PREEMPT = "Preempt";

    public ScheduledEvent {
        resources = List.copyOf(resources);
    }

    public boolean isPreempt() {
        return PREEMPT.equals(eventType);
    }

    /** Azure resource names are case-insensitive, so the VM's own name may be spelled differently here. */
    public boolean affects(String vmName) {
        String wanted = vmName.toLowerCase(Locale.ROOT);
        return resources.stream().anyMatch(r -> r.toLowerCase(Locale.ROOT).equals(wanted));
    }

    /** How the event reads in a job's status: {@code Azure Scheduled Event <id> (Preempt, NotBefore ...)}. */
    public String describe() {
        return "Azure Scheduled Event " + eventId + " (" + eventType
                + (notBefore.isBlank() ? ", " + eventStatus : ", NotBefore " + notBefore) + ")";
    }
}
