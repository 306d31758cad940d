package dev.gantry.core.config;

import dev.gantry.api.Scheduler;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.SpotPolicy;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/** The configuration while its layers (file, environment, flags) are applied in turn; becomes a GantryConfig. */
final class ConfigDraft {
    String backend;
    final Map<String, Map<String, String>> backends = new TreeMap<>();
    final Map<String, Map<String, SourceLocation>> backendLocations = new TreeMap<>();
    List<String> defaultRegions;
    Optional<SpotPolicy> defaultSpot;
    Map<String, List<String>> defaultZones;
    Optional<Scheduler> adviceScheduler;
    Optional<Path> catalogFile;
    Path stateDirectory;
    Optional<String> stateUrl;
    /** Whether any layer gave state.url, valid or not: login settings without one are an error only then. */
    boolean stateUrlGiven;
    Optional<String> stateUser;
    Optional<SecretRef> statePassword;
    Duration pollInterval;
    int onDemandAfterEvictions;
    int nextRegionAfterEvictions;
    int maxJobs;
    String source;

    ConfigDraft(GantryConfig start) {
        backend = start.backend();
        start.backends().forEach((name, values) -> backends.put(name, new TreeMap<>(values)));
        start.backendLocations().forEach((name, values) -> backendLocations.put(name, new TreeMap<>(values)));
        defaultRegions = new ArrayList<>(start.defaultRegions());
        defaultSpot = start.defaultSpot();
        defaultZones = start.defaultZones();
        adviceScheduler = start.adviceScheduler();
        catalogFile = start.catalogFile();
        stateDirectory = start.stateDirectory();
        stateUrl = start.stateServer().map(StateServer::url);
        stateUrlGiven = stateUrl.isPresent();
        stateUser = start.stateServer().flatMap(StateServer::user);
        statePassword = start.stateServer().flatMap(StateServer::password);
        pollInterval = start.runs().pollInterval();
        onDemandAfterEvictions = start.runs().onDemandAfterEvictions();
        nextRegionAfterEvictions = start.runs().nextRegionAfterEvictions();
        maxJobs = start.runs().maxJobs();
        source = start.source();
    }

    Map<String, String> backendSettings(String name) {
        return backends.computeIfAbsent(name, n -> new TreeMap<>());
    }

    /** Where each of a backend's settings was read; a layer that sets a key again without a file removes it. */
    Map<String, SourceLocation> backendLocations(String name) {
        return backendLocations.computeIfAbsent(name, n -> new TreeMap<>());
    }

    GantryConfig build() {
        Optional<StateServer> server = stateUrl.map(url -> new StateServer(url, stateUser, statePassword));
        return new GantryConfig(backend, backends, defaultRegions, defaultSpot, adviceScheduler, catalogFile,
                stateDirectory, server, source, backendLocations,
                new RunSettings(pollInterval, onDemandAfterEvictions, nextRegionAfterEvictions, maxJobs), defaultZones);
    }
}
