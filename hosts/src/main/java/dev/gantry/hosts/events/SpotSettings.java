package dev.gantry.hosts.events;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;

/**
 * Whether the host is an Azure Spot VM and how Gantry watches it for evictions, bound from the manual backend's
 * configuration.
 *
 * @param spot whether the host is a spot VM, or {@link Spot#AUTO} to ask its metadata service once
 * @param endpoint the Scheduled Events URL as the host reaches it; the compute name and priority are read from the
 *     same scheme, host and port
 * @param eventsEnabled {@code scheduledEvents.enabled} when given; by default events are watched on spot hosts
 * @param acknowledge whether Gantry acknowledges a Preempt event once its jobs had their grace period
 * @param vmName the VM's name as Scheduled Events list it; when absent it is read from the metadata service
 */
public record SpotSettings(Spot spot, URI endpoint, Optional<Boolean> eventsEnabled, boolean acknowledge,
                           Optional<String> vmName) {
    public static final String SPOT = "spot";
    public static final String VM_NAME = "vmName";
    public static final String EVENTS_ENABLED = "scheduledEvents.enabled";
    public static final String EVENTS_ENDPOINT = "scheduledEvents.endpoint";
    public static final String EVENTS_ACKNOWLEDGE = "scheduledEvents.acknowledge";
    /** The link-local Instance Metadata Service address every Azure VM answers on, with the contract's version. */
    public static final URI IMDS_EVENTS =
            URI.create("http://169.254.169.254/metadata/scheduledevents?api-version=2020-07-01");

    public static final List<ConfigKey> KEYS = List.of(
            ConfigKey.optional(SPOT, "whether the host is an Azure Spot VM: true, false, or auto (ask the host's "
                    + "instance metadata service once)", "false"),
            ConfigKey.optional(VM_NAME, "the host's VM name as Azure Scheduled Events list it in Resources",
                    "read from the instance metadata service"),
            ConfigKey.optional(EVENTS_ENABLED, "watch the host's Azure Scheduled Events for Preempt events while "
                    + "jobs run", "true on spot hosts"),
            ConfigKey.optional(EVENTS_ENDPOINT, "the Scheduled Events URL, as the host reaches it",
                    IMDS_EVENTS.toString()),
            ConfigKey.optional(EVENTS_ACKNOWLEDGE, "acknowledge a Preempt event after the jobs' grace period, which "
                    + "lets Azure evict the VM before NotBefore", "false"));

    /** Whether the host is a spot VM. */
    public enum Spot {
        TRUE, FALSE, AUTO
    }

    public SpotSettings {
        vmName = vmName.map(String::strip).filter(n -> !n.isEmpty());
    }

    /** Not a spot host and no watch: what a backend built without these settings gets. */
    public static SpotSettings off() {
        return new SpotSettings(Spot.FALSE, IMDS_EVENTS, Optional.empty(), false, Optional.empty());
    }

    /** The backend's other keys followed by these. */
    public static List<ConfigKey> withKeys(List<ConfigKey> others) {
        return Stream.concat(others.stream(), KEYS.stream()).toList();
    }

    /** Binds the keys above, reporting every bad value at once. */
    public static SpotSettings bind(BackendConfig config) {
        List<Problem> problems = new ArrayList<>();
        Spot spot = Spot.FALSE;
        Optional<String> spotText = config.get(SPOT).map(String::strip);
        if (spotText.isPresent()) {
            switch (spotText.get()) {
                case "true" -> spot = Spot.TRUE;
                case "false" -> spot = Spot.FALSE;
                case "auto" -> spot = Spot.AUTO;
                default -> problems.add(problem(config, SPOT, "must be true, false or auto, got '"
                        + spotText.get() + "'"));
            }
        }
        Optional<Boolean> enabled = bool(config, EVENTS_ENABLED, problems);
        boolean acknowledge = bool(config, EVENTS_ACKNOWLEDGE, problems).orElse(false);
        URI endpoint = IMDS_EVENTS;
        Optional<String> endpointText = config.get(EVENTS_ENDPOINT).map(String::strip);
        if (endpointText.isPresent()) {
            Optional<URI> parsed = httpUri(endpointText.get());
            if (parsed.isPresent()) {
                endpoint = parsed.get();
            } else {
                problems.add(problem(config, EVENTS_ENDPOINT, "must be an http URL such as " + IMDS_EVENTS
                        + ", got '" + endpointText.get() + "'"));
            }
        }
        Optional<String> vmName = config.get(VM_NAME);
        if (vmName.isPresent() && vmName.get().isBlank()) {
            problems.add(problem(config, VM_NAME, "must be the VM's name, got an empty value; remove the key to "
                    + "read the name from the instance metadata service"));
        }
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
        return new SpotSettings(spot, endpoint, enabled, acknowledge, vmName);
    }

    /** Where the metadata service answers {@code path}: the endpoint's scheme, host and port. */
    public URI metadata(String pathAndQuery) {
        return endpoint.resolve(pathAndQuery);
    }

    private static Optional<Boolean> bool(BackendConfig config, String key, List<Problem> problems) {
        Optional<String> text = config.get(key).map(String::strip);
        if (text.isEmpty()) {
            return Optional.empty();
        }
        return switch (text.get()) {
            case "true" -> Optional.of(true);
            case "false" -> Optional.of(false);
            default -> {
                problems.add(problem(config, key, "must be true or false, got '" + text.get() + "'"));
                yield Optional.empty();
            }
        };
    }

    /** http or https with a host, and nothing a shell or curl could read as an option. */
    private static Optional<URI> httpUri(String text) {
        try {
            URI uri = new URI(text);
            boolean http = "http".equals(uri.getScheme()) || "https".equals(uri.getScheme());
            return http && uri.getHost() != null ? Optional.of(uri) : Optional.empty();
        } catch (URISyntaxException e) {
            return Optional.empty();
        }
    }

    private static Problem problem(BackendConfig config, String key, String message) {
        return Problem.of("backends." + config.backend() + "." + key, message);
    }
}
