package dev.gantry.core.config;

import dev.gantry.api.Problem;
import dev.gantry.api.Scheduler;
import dev.gantry.api.SecretRef;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.Workload;
import dev.gantry.core.spec.ZonesField;
import dev.gantry.core.spec.yaml.Binder;
import dev.gantry.core.spec.yaml.FieldPath;
import dev.gantry.core.spec.yaml.YamlNode;
import dev.gantry.core.spec.yaml.YamlText;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.Function;

/** Binds a located {@code gantry.yaml} onto a {@link ConfigDraft}, collecting every problem of the file. */
final class ConfigFileBinder {
    static final String API_VERSION = "gantry.dev/v1";
    static final List<String> TOP_FIELDS = List.of("apiVersion", "kind", "backend", "backends", "defaults", "advice",
            "catalog", "state", "runs", "spot");

    static final List<String> DEFAULTS_FIELDS = List.of("regions", "spot", "zones");
    static final List<String> RUNS_FIELDS = List.of("pollInterval", "maxJobs");
    static final List<String> SPOT_FIELDS = List.of("onDemandAfterEvictions", "nextRegionAfterEvictions");

    /**
     * Where core's settings written at the wrong level belong, for "unknown field" messages. A backend's settings are
     * the backend's to name (its keys, listed by {@code gantry backends}): core spells none of them here.
     */
    static final Map<String, String> ELSEWHERE = Map.of("regions", "under defaults",
            "scheduler", "under advice", "dir", "under state", "url", "under state", "pollInterval", "under runs",
            "maxJobs", "under runs",
            "onDemandAfterEvictions", "under spot", "nextRegionAfterEvictions", "under spot",
            "zones", "under defaults");

    private final Binder in;
    private final Path home;
    private final Path base;

    /**
     * @param base the directory relative paths in the file are resolved against: the file's own directory
     */
    ConfigFileBinder(Binder in, Path home, Path base) {
        this.in = in;
        this.home = home;
        this.base = base;
    }

    void bind(String text, ConfigDraft draft) {
        // An empty file is valid: every setting takes its default.
        YamlText.Parsed parsed = YamlText.parse(in.fileName(), text);
        in.addAll(parsed.problems());
        if (parsed.root().isEmpty()) {
            return;
        }
        YamlNode root = parsed.root().get();
        if (!(root instanceof YamlNode.Mapping)) {
            in.report("", root.location(), "a configuration must be a mapping with keys such as backend and "
                    + "backends, got " + root.describe());
            return;
        }
        YamlNode.Mapping doc = in.mapping(root, "", root.location(), TOP_FIELDS, ELSEWHERE).orElseThrow();
        in.remember("", root.location());
        in.string(doc, "", "apiVersion").filter(v -> !v.equals(API_VERSION)).ifPresent(v ->
                in.report("apiVersion", in.keyLocation(doc, "apiVersion"), "must be " + API_VERSION + ", got '"
                        + v + "'"));
        in.string(doc, "", "kind").filter(v -> !v.equals("Config")).ifPresent(v ->
                in.report("kind", in.keyLocation(doc, "kind"), "must be Config, got '" + v + "'"
                        + (v.equals("Workload") ? " (this is a workload spec: pass it to gantry validate or gantry "
                        + "run, not to --config)" : "")));
        in.string(doc, "", "backend").ifPresent(name -> SettingRules.checkBackendName(name).ifPresentOrElse(
                message -> in.report("backend", in.keyLocation(doc, "backend"), message),
                () -> draft.backend = name));
        backends(doc, draft);
        section(doc, "defaults", DEFAULTS_FIELDS).ifPresent(d -> {
            in.list(d, "defaults", "regions", "Azure region names", true).ifPresent(regions -> {
                List<String> valid = new ArrayList<>();
                for (int i = 0; i < regions.size(); i++) {
                    String path = FieldPath.index("defaults.regions", i);
                    Optional<String> problem = SettingRules.checkRegion(regions.get(i));
                    if (problem.isPresent()) {
                        in.report(path, in.locate(path), problem.get());
                    } else {
                        valid.add(regions.get(i));
                    }
                }
                draft.defaultRegions = valid;
            });
            in.word(d, "defaults", "spot", SettingRules.SPOT_POLICIES)
                    .ifPresent(spot -> draft.defaultSpot = Optional.of(SettingRules.spot(spot)));
            if (d.entry("zones").isPresent()) {
                defaultZones(d).ifPresent(zones -> draft.defaultZones = zones);
            }
        });
        section(doc, "advice", List.of("scheduler")).ifPresent(a ->
                in.word(a, "advice", "scheduler", Scheduler.configNames())
                        .ifPresent(s -> draft.adviceScheduler = Scheduler.ofConfigName(s)));
        section(doc, "catalog", List.of("file")).ifPresent(c -> path(c, "catalog", "file")
                .ifPresent(p -> draft.catalogFile = Optional.of(p)));
        section(doc, "state", List.of("dir", "url", "user", "password")).ifPresent(s -> {
            path(s, "state", "dir").ifPresent(p -> draft.stateDirectory = p);
            draft.stateUrlGiven |= s.entry("url").isPresent();
            checked(s, "state", "url", SettingRules::checkStateUrl).ifPresent(u -> draft.stateUrl = Optional.of(u));
            checked(s, "state", "user", SettingRules::checkStateUser).ifPresent(u -> draft.stateUser = Optional.of(u));
            checked(s, "state", "password", SettingRules::checkPasswordReference)
                    .ifPresent(p -> draft.statePassword = Optional.of(SecretRef.parse(p)));
        });
        section(doc, "runs", RUNS_FIELDS).ifPresent(r -> {
            scalar(r, "runs", RUNS_FIELDS.get(0), SettingRules.POLL_INTERVAL_HELP, SettingRules::checkPollInterval)
                    .ifPresent(t -> draft.pollInterval = SettingRules.pollInterval(t));
            scalar(r, "runs", RUNS_FIELDS.get(1), "a whole number of 1 or more", SettingRules::checkMaxJobs)
                    .ifPresent(t -> draft.maxJobs = SettingRules.maxJobs(t));
        });
        spotSection(doc).ifPresent(s -> {
            scalar(s, "spot", SPOT_FIELDS.get(0), "a whole number from 0 to "
                    + RunSettings.MAX_ON_DEMAND_AFTER_EVICTIONS, SettingRules::checkOnDemandAfterEvictions)
                    .ifPresent(t -> draft.onDemandAfterEvictions = SettingRules.onDemandAfterEvictions(t));
            scalar(s, "spot", SPOT_FIELDS.get(1), "a whole number from 0 to "
                    + RunSettings.MAX_NEXT_REGION_AFTER_EVICTIONS, SettingRules::checkNextRegionAfterEvictions)
                    .ifPresent(t -> draft.nextRegionAfterEvictions = SettingRules.nextRegionAfterEvictions(t));
        });
    }

    /**
     * {@code defaults.zones}, read as a workload's {@code zones} is and checked by the same rule, each problem located
     * at its region or zone; empty when it has any. Its regions need not be among {@code defaults.regions}: the zones
     * apply to whichever regions a workload is planned in.
     */
    private Optional<Map<String, List<String>>> defaultZones(YamlNode.Mapping defaults) {
        int count = in.problems().size();
        Map<String, List<String>> zones = ZonesField.read(in, defaults, "defaults", "zones");
        List<Problem> problems = Workload.zoneProblems(ConfigSources.ZONES, zones, List.of());
        problems.forEach(p -> in.report(p.path(), in.locate(p.path()), p.message()));
        return in.problems().size() == count ? Optional.of(zones) : Optional.empty();
    }

    /**
     * A scalar setting taken as its text, as the environment and flags give it, that passes {@code rule}; so that
     * {@code 5} and {@code '5'} read alike and each layer reports a value the same way.
     */
    private Optional<String> scalar(YamlNode.Mapping map, String parent, String key, String what,
                                    Function<String, Optional<String>> rule) {
        String path = FieldPath.join(parent, key);
        SourceLocation where = in.keyLocation(map, key);
        return in.field(map, parent, key).flatMap(node -> in.text(node, path, where, what)).flatMap(text -> {
            Optional<String> problem = rule.apply(text);
            problem.ifPresent(m -> in.report(path, where, m));
            return problem.isPresent() ? Optional.empty() : Optional.of(text.trim());
        });
    }

    /**
     * The {@code spot:} section. A spot policy there ({@code spot: allowed}) is most likely the workloads' default
     * written at the top level: the message says where that belongs.
     */
    private Optional<YamlNode.Mapping> spotSection(YamlNode.Mapping doc) {
        Optional<YamlNode> node = in.field(doc, "", "spot");
        if (node.isPresent() && node.get() instanceof YamlNode.Scalar s
                && SettingRules.SPOT_POLICIES.contains(s.text())) {
            in.report("spot", in.keyLocation(doc, "spot"), "must be a mapping (fields: "
                    + String.join(", ", SPOT_FIELDS) + "), got " + s.describe() + "; the spot policy for workloads "
                    + "belongs under defaults: defaults: {spot: " + s.text() + "}");
            return Optional.empty();
        }
        return node.flatMap(n -> in.mapping(n, "spot", in.keyLocation(doc, "spot"), SPOT_FIELDS));
    }

    /** A string setting that passes {@code rule}, trimmed; reported at its key when it does not. */
    private Optional<String> checked(YamlNode.Mapping map, String parent, String key,
                                     Function<String, Optional<String>> rule) {
        return in.string(map, parent, key).flatMap(text -> {
            Optional<String> problem = rule.apply(text);
            problem.ifPresent(m -> in.report(FieldPath.join(parent, key), in.keyLocation(map, key), m));
            return problem.isPresent() ? Optional.empty() : Optional.of(text.trim());
        });
    }

    private Optional<YamlNode.Mapping> section(YamlNode.Mapping doc, String key, List<String> fields) {
        return in.field(doc, "", key).flatMap(n -> in.mapping(n, key, in.keyLocation(doc, key), fields));
    }

    private Optional<Path> path(YamlNode.Mapping map, String parent, String key) {
        return in.string(map, parent, key).flatMap(text -> {
            Optional<String> problem = SettingRules.checkPath(text);
            problem.ifPresent(m -> in.report(FieldPath.join(parent, key), in.keyLocation(map, key), m));
            return problem.isPresent() ? Optional.empty() : Optional.of(SettingRules.resolvePath(text, home, base));
        });
    }

    private void backends(YamlNode.Mapping doc, ConfigDraft draft) {
        Optional<YamlNode> node = in.field(doc, "", "backends");
        if (node.isEmpty()) {
            return;
        }
        if (!(node.get() instanceof YamlNode.Mapping map)) {
            in.report("backends", in.keyLocation(doc, "backends"), "must be a mapping from backend name to its "
                    + "settings (each backend's keys: gantry backends --output json), got " + node.get().describe());
            return;
        }
        for (YamlNode.Entry entry : map.entries()) {
            String path = FieldPath.join("backends", entry.key());
            Optional<String> badName = SettingRules.checkBackendName(entry.key());
            if (badName.isPresent()) {
                in.report(path, entry.keyLocation(), badName.get());
                continue;
            }
            YamlNode value = entry.value();
            if (value instanceof YamlNode.Scalar s && s.type() == YamlNode.ScalarType.NULL) {
                draft.backendSettings(entry.key());
                continue;
            }
            if (!(value instanceof YamlNode.Mapping settings)) {
                in.report(path, entry.keyLocation(), "must be a mapping of the " + entry.key()
                        + " backend's settings, got " + value.describe());
                continue;
            }
            Map<String, String> flat = draft.backendSettings(entry.key());
            Map<String, SourceLocation> where = draft.backendLocations(entry.key());
            flat.clear();
            where.clear();
            flatten(settings, "", flat, where);
        }
    }

    /**
     * Nested mappings become dotted keys, list elements {@code key[i]}, scalars their text as written; each key's
     * location is where its value was written. Each mapping and list has its location too ({@code ""} for the
     * backend's own section, {@code hosts[0]}), so that a backend can point a required key nobody wrote at the place
     * it belongs.
     */
    static void flatten(YamlNode node, String prefix, Map<String, String> out, Map<String, SourceLocation> where) {
        if (!(node instanceof YamlNode.Scalar)) {
            where.put(prefix, node.location());
        }
        if (node instanceof YamlNode.Mapping map) {
            for (YamlNode.Entry entry : map.entries()) {
                flatten(entry.value(), FieldPath.join(prefix, entry.key()), out, where);
            }
        } else if (node instanceof YamlNode.Sequence seq) {
            for (int i = 0; i < seq.items().size(); i++) {
                flatten(seq.items().get(i), FieldPath.index(prefix, i), out, where);
            }
        } else if (node instanceof YamlNode.Scalar scalar) {
            out.put(prefix, scalar.type() == YamlNode.ScalarType.NULL ? "" : scalar.text());
            where.put(prefix, scalar.location());
        }
    }
}
