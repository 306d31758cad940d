package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.ConfigKey;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import picocli.CommandLine.Command;

@Command(name = "backends", description = "List the installed backends with their capabilities.")
final class BackendsCommand extends Verb {
    @Override
    public Integer call() {
        List<BackendProvider> providers = root.gantry().backends();
        String configured = root.gantry().backendName();
        if (output.json()) {
            ArrayNode array = Json.array();
            for (BackendProvider provider : providers) {
                ObjectNode node = array.addObject();
                node.put("name", provider.name());
                node.put("description", provider.description());
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
            Json.print(env().out(), array);
        } else {
            Table table = new Table("NAME", "AVAILABLE", "CAPABILITIES", "DESCRIPTION");
            for (BackendProvider provider : providers) {
                String name = provider.name() + (provider.name().equals(configured) ? " *" : "");
                table.row(name, provider.unavailableReason().isEmpty() ? "yes" : "no",
                        String.join(",", capabilityNames(provider.capabilities())), provider.description());
            }
            table.print(env().out());
            env().out().println("* configured backend");
        }
        return Main.OK;
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
