package dev.gantry.hosts.events;

import dev.gantry.api.GantryException;
import dev.gantry.hosts.events.MetadataQuery.Answer;
import dev.gantry.hosts.events.MetadataQuery.Request;
import dev.gantry.hosts.probe.Check;
import java.net.URI;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Watches one host for Azure Spot evictions through its Scheduled Events. Each {@link #check()} is one command on the
 * host; the caller makes at most one per status poll, and only while jobs run there. What the watch learns once (the
 * VM's name, whether it is a spot VM) it keeps for its lifetime, so later checks ask only for the events.
 */
public final class EvictionWatch {
    static final String COMPUTE_NAME = "/metadata/instance/compute/name?api-version=2021-02-01&format=text";
    static final String COMPUTE_PRIORITY = "/metadata/instance/compute/priority?api-version=2021-02-01&format=text";

    private final MetadataHost host;
    private final SpotSettings settings;
    private final Set<String> acknowledged = ConcurrentHashMap.newKeySet();
    private volatile Optional<String> vmName;
    /** Empty while {@code spot: auto} has not been answered yet. */
    private volatile Optional<Boolean> spot;

    /** What one check found: the Preempt event for this VM, if any, and a problem that kept it from looking. */
    public record Check(Optional<ScheduledEvent> preemption, Optional<String> problem) {
        static Check nothing() {
            return new Check(Optional.empty(), Optional.empty());
        }

        static Check problem(String problem) {
            return new Check(Optional.empty(), Optional.of(problem));
        }
    }

    public EvictionWatch(MetadataHost host, SpotSettings settings) {
        this.host = host;
        this.settings = settings;
        this.vmName = settings.vmName();
        this.spot = switch (settings.spot()) {
            case TRUE -> Optional.of(true);
            case FALSE -> Optional.of(false);
            case AUTO -> Optional.empty();
        };
    }

    /** Whether the host is known to be a spot VM: a job that vanished there was most likely evicted. */
    public boolean spotHost() {
        return spot.orElse(false);
    }

    /** Whether status polls should check: {@code scheduledEvents.enabled}, by default whether the host may be spot. */
    public boolean watching() {
        return settings.eventsEnabled().orElse(spot.orElse(true));
    }

    /**
     * Asks the host's metadata service, in one command, for the Scheduled Events (and, the first time, the VM's
     * name and priority where they are not configured). Never throws for an unreachable or confused service: that
     * is a problem to report beside the jobs' status, not a reason to fail the poll.
     */
    public Check check() {
        if (!watching()) {
            return Check.nothing();
        }
        List<Request> requests = requests();
        try {
            return read(MetadataQuery.answers(host.run(MetadataQuery.argv(requests),
                    MetadataQuery.timeout(requests))));
        } catch (GantryException e) {
            return Check.problem("Azure Scheduled Events were not checked on " + host.name() + ": "
                    + e.getMessage());
        }
    }

    /**
     * The requests of the next check, for a caller that sends them within a command of its own (the ssh transport
     * asks them in the same command as its status scan); {@link #read} then takes the answers.
     */
    public List<Request> requests() {
        List<Request> requests = new ArrayList<>();
        if (vmName.isEmpty()) {
            requests.add(Request.get("name", settings.metadata(COMPUTE_NAME)));
        }
        if (spot.isEmpty()) {
            requests.add(Request.get("priority", settings.metadata(COMPUTE_PRIORITY)));
        }
        requests.add(Request.get("events", settings.endpoint()));
        return requests;
    }

    /** What the answers to {@link #requests()} say: the Preempt event for this VM, if any, or why none was read. */
    public Check read(Map<String, Answer> answers) {
        URI events = settings.endpoint();
        URI name = settings.metadata(COMPUTE_NAME);
        if (spot.isEmpty()) {
            Optional<Answer> answer = MetadataQuery.answer(answers, "priority");
            // Spot, or Low (the older low-priority VMs, evicted the same way); no answer: not an Azure VM.
            boolean evictable = answer.filter(Answer::ok).map(a -> a.text().strip().toLowerCase(Locale.ROOT))
                    .filter(p -> p.equals("spot") || p.equals("low")).isPresent();
            spot = Optional.of(evictable);
            if (!watching()) {
                return Check.nothing();
            }
        }
        if (vmName.isEmpty()) {
            Optional<Answer> answer = MetadataQuery.answer(answers, "name");
            if (answer.isPresent() && answer.get().ok() && !answer.get().text().isBlank()) {
                vmName = Optional.of(answer.get().text().strip());
            } else {
                return Check.problem(answer.map(a -> a.problem(host.name(), name)).orElse(noAnswer(name))
                        + "; set " + SpotSettings.VM_NAME + " to the VM's name");
            }
        }
        Optional<Answer> answer = MetadataQuery.answer(answers, "events");
        if (answer.isEmpty() || !answer.get().ok()) {
            return Check.problem(answer.map(a -> a.problem(host.name(), events)).orElse(noAnswer(events)));
        }
        EventsReading reading = ScheduledEvents.parse(answer.get().text());
        if (reading instanceof EventsReading.Unreadable unreadable) {
            return Check.problem(unreadable.reason() + " (from " + events + " on " + host.name() + ")");
        }
        List<ScheduledEvent> preemptions = ((ScheduledEvents) reading).preemptionsOf(vmName.get());
        // Several Preempt events for one VM describe one eviction; the document's first names it.
        return new Check(preemptions.stream().findFirst(), Optional.empty());
    }

    /**
     * Acknowledges a Preempt event once, when {@code scheduledEvents.acknowledge} is on: Azure may then evict the VM
     * at once instead of at NotBefore. Call it after the jobs had their grace period. Returns a problem, if any.
     */
    public Optional<String> acknowledge(ScheduledEvent event) {
        if (!settings.acknowledge() || !acknowledged.add(event.eventId())) {
            return Optional.empty();
        }
        URI events = settings.endpoint();
        List<Request> requests = List.of(new Request("acknowledge", events, startRequest(event.eventId())));
        try {
            Map<String, Answer> answers = MetadataQuery.answers(host.run(MetadataQuery.argv(requests),
                    MetadataQuery.timeout(requests)));
            Optional<Answer> answer = MetadataQuery.answer(answers, "acknowledge");
            if (answer.isPresent() && answer.get().ok()) {
                return Optional.empty();
            }
            acknowledged.remove(event.eventId());
            return Optional.of("acknowledging " + event.eventId() + " failed: "
                    + answer.map(a -> a.problem(host.name(), events)).orElse(noAnswer(events)));
        } catch (GantryException e) {
            acknowledged.remove(event.eventId());
            return Optional.of("acknowledging " + event.eventId() + " failed: " + e.getMessage());
        }
    }

    /** The contract's acknowledgement body. */
    static String startRequest(String eventId) {
        StringBuilder id = new StringBuilder();
        for (char c : eventId.toCharArray()) {
            if (c == '"' || c == '\\') {
                id.append('\\');
            }
            if (c >= 0x20) {
                id.append(c);
            }
        }
        return "{\"StartRequests\":[{\"EventId\":\"" + id + "\"}]}";
    }

    private String noAnswer(URI url) {
        return "asking " + url + " on " + host.name() + " printed nothing Gantry understands (is sh there?)";
    }
}
