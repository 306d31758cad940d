package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.model.InstalledBackend;
import dev.gantry.model.InstalledBackends;
import dev.gantry.model.PluginFailure;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.stream.Collectors;
import picocli.CommandLine.Command;

@Command(name = "backends", description = "List the installed backends (built in and from plugins) with where each "
        + "came from, its version and capabilities, and the plugins that failed to load.")
final class BackendsCommand extends Verb {
    @Override
    public Integer call() {
        InstalledBackends installed = root.gantry().installedBackends();
        String configured = root.gantry().backendName();
        if (output.json()) {
            Json.print(env().out(), json(installed, configured));
        } else {
            Table table = new Table("NAME", "AVAILABLE", "VERSION", "ORIGIN", "CAPABILITIES", "DESCRIPTION");
            for (InstalledBackend backend : installed.backends()) {
                BackendProvider provider = backend.provider();
                String name = provider.name() + (provider.name().equals(configured) ? " *" : "");
                table.row(name, provider.unavailableReason().isEmpty() ? "yes" : "no", backend.version(),
                        backend.origin(), String.join(",", capabilityNames(provider.capabilities())),
                        provider.description());
            }
            table.print(env().out());
            env().out().println("* configured backend");
            if (!installed.failures().isEmpty()) {
                env().out().println("plugins that failed to load (their backends are not available):");
                installed.failures().forEach(f -> env().out().println("  " + f.describe()));
            }
            env().out().println("plugin directories: " + installed.pluginDirectories().stream().map(Path::toString)
                    .collect(Collectors.joining(File.pathSeparator)));
        }
        return Main.OK;
    }

    /**
     * One element per backend, with its origin ({@code built in} or the plugin jar's path), {@code plugin} (the jar,
     * or null) and version; then one per plugin that failed to load: {@code loaded} false, its path as origin and
     * plugin, the reason as {@code unavailableReason}, and a name only where the plugin got as far as naming its
     * backend (a name another backend has).
     */
    private static ArrayNode json(InstalledBackends installed, String configured) {
        ArrayNode array = Json.array();
        for (InstalledBackend backend : installed.backends()) {
            BackendProvider provider = backend.provider();
            ObjectNode node = array.addObject();
            node.put("name", provider.name());
            node.put("description", provider.description());
            node.put("loaded", true);
            node.put("origin", backend.origin());
            backend.plugin().ifPresentOrElse(jar -> node.put("plugin", jar.toString()), () -> node.putNull("plugin"));
            node.put("version", backend.version());
            node.set("capabilities", capabilities(provider.capabilities()));
            node.put("available", provider.unavailableReason().isEmpty());
            provider.unavailableReason().ifPresent(reason -> node.put("unavailableReason", reason));
            node.put("configured", provider.name().equals(configured));
            ArrayNode keys = node.putArray("configKeys");
            for (ConfigKey key : provider.configKeys()) {
                ObjectNode k = keys.addObject();
                k.put("name", key.name());
                k.put("description", key.description());
                k.put("required", key.required());
                k.put("secret", key.secret());
                key.defaultValue().ifPresentOrElse(v -> k.put("default", v), () -> k.putNull("default"));
            }
        }
        for (PluginFailure failure : installed.failures()) {
            ObjectNode node = array.addObject();
            failure.backend().ifPresentOrElse(name -> node.put("name", name), () -> node.putNull("name"));
            node.put("loaded", false);
            node.put("origin", failure.plugin().toString());
            node.put("plugin", failure.plugin().toString());
            node.put("available", false);
            node.put("unavailableReason", failure.reason());
        }
        return array;
    }

    static ObjectNode capabilities(Capabilities c) {
        ObjectNode node = Json.object();
        node.put("multiNode", c.multiNode());
        node.put("containers", c.containers());
        node.put("spot", c.spot());
        node.put("nativeDependencies", c.nativeDependencies());
        node.put("followLogs", c.followLogs());
        node.put("placesByRegion", c.placesByRegion());
        ArrayNode vendors = node.putArray("gpuVendors");
        c.gpuVendors().stream().sorted().forEach(v -> vendors.add(v.name().toLowerCase(Locale.ROOT)));
        return node;
    }

    private static List<String> capabilityNames(Capabilities c) {
        List<String> names = new ArrayList<>();
        if (c.multiNode()) {
            names.add("multi-node");
        }
        if (c.containers()) {
            names.add("containers");
        }
        if (c.spot()) {
            names.add("spot");
        }
        if (c.nativeDependencies()) {
            names.add("dependencies");
        }
        if (c.followLogs()) {
            names.add("follow-logs");
        }
        if (c.placesByRegion()) {
            names.add("regions");
        }
        for (GpuVendor vendor : c.gpuVendors().stream().sorted().toList()) {
            names.add(vendor.name().toLowerCase(Locale.ROOT));
        }
        return names;
    }
}
