package dev.gantry.hosts.events;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.hosts.events.SpotSettings.Spot;
import java.net.URI;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SpotSettingsTest {
    private static SpotSettings bind(Map<String, String> values) {
        return SpotSettings.bind(new BackendConfig("manual", values));
    }

    @Test
    void defaultsToARegularHostWatchedThroughImdsWithoutAcknowledging() {
        assertEquals(new SpotSettings(Spot.FALSE, URI.create("http://169.254.169.254/metadata/scheduledevents"
                + "?api-version=2020-07-01"), Optional.empty(), false, Optional.empty()), bind(Map.of()));
        assertEquals(SpotSettings.off(), bind(Map.of()));
    }

    @Test
    void bindsEveryKey() {
        assertEquals(new SpotSettings(Spot.AUTO, URI.create("http://127.0.0.1:8080/metadata/scheduledevents"),
                Optional.of(true), true, Optional.of("spot-gpu-1")), bind(Map.of("spot", "auto",
                "scheduledEvents.endpoint", "http://127.0.0.1:8080/metadata/scheduledevents",
                "scheduledEvents.enabled", "true", "scheduledEvents.acknowledge", "true", "vmName", " spot-gpu-1 ")));
    }

    @Test
    void theComputeNameIsAskedWhereTheEventsAre() {
        SpotSettings settings = bind(Map.of("scheduledEvents.endpoint",
                "http://127.0.0.1:8080/metadata/scheduledevents?api-version=2020-07-01"));
        assertEquals(URI.create("http://127.0.0.1:8080/metadata/instance/compute/name?api-version=2021-02-01"
                + "&format=text"), settings.metadata(EvictionWatch.COMPUTE_NAME));
    }

    @Test
    void reportsEveryBadValueAtOnce() {
        GantryException e = assertThrows(GantryException.class, () -> bind(Map.of("spot", "yes",
                "scheduledEvents.endpoint", "-K/etc/passwd", "scheduledEvents.enabled", "on",
                "scheduledEvents.acknowledge", "1", "vmName", " ")));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "backends.manual.spot: must be true, false or auto, got 'yes'",
                "backends.manual.scheduledEvents.enabled: must be true or false, got 'on'",
                "backends.manual.scheduledEvents.acknowledge: must be true or false, got '1'",
                "backends.manual.scheduledEvents.endpoint: must be an http URL such as "
                        + "http://169.254.169.254/metadata/scheduledevents?api-version=2020-07-01, got '-K/etc/passwd'",
                "backends.manual.vmName: must be the VM's name, got an empty value; remove the key to read the name "
                        + "from the instance metadata service"),
                e.problems().stream().map(Object::toString).toList());
    }
}
