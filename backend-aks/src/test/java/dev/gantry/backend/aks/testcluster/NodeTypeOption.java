package dev.gantry.backend.aks.testcluster;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The process's {@code --node-type SIZE,cpu=N,memory=Q[,gpus=N][,spot]}: the VM size a node of the test cluster is,
 * what it offers pods, and its priority, so that an end-to-end run offers nodes of the size the advisor planned
 * (the backend places by {@code node.kubernetes.io/instance-type}). Nodes of one size share a pool named from the
 * size, as AKS pools hold one size each.
 */
final class NodeTypeOption {
    static final String SYNTAX = "--node-type SIZE,cpu=N,memory=Q[,gpus=N][,spot]";
    private static final Pattern SIZE = Pattern.compile("[A-Za-z0-9_]+");
    private static final Pattern CPU = Pattern.compile("[0-9]+(m)?");
    private static final Pattern MEMORY = Pattern.compile("[0-9]+(Ki|Mi|Gi|Ti)?");
    private static final Pattern COUNT = Pattern.compile("[0-9]+");
    /** AKS's limit on an agent pool's name: lower-case letters and digits, at most 12. */
    private static final int POOL_NAME_LENGTH = 12;

    private NodeTypeOption() {
    }

    /** The node of {@code text} in {@code slot}; an error names the option, the part and the syntax. */
    static NodeTemplate parse(String text, NodeSlot slot) {
        List<String> parts = List.of(text.split(",", -1));
        String size = parts.get(0);
        require(SIZE.matcher(size).matches(), text, "the VM size '" + size + "' is not a size name such as"
                + " Standard_E2as_v5");
        Map<String, String> allocatable = new LinkedHashMap<>();
        boolean spot = false;
        for (String part : parts.subList(1, parts.size())) {
            if (part.equals("spot")) {
                spot = true;
                continue;
            }
            int equals = part.indexOf('=');
            String key = equals < 0 ? part : part.substring(0, equals);
            String value = equals < 0 ? "" : part.substring(equals + 1);
            switch (key) {
                case "cpu" -> allocatable.put("cpu", checked(CPU, value, text, "cpu"));
                case "memory" -> allocatable.put("memory", checked(MEMORY, value, text, "memory"));
                case "gpus" -> allocatable.put("nvidia.com/gpu", checked(COUNT, value, text, "gpus"));
                default -> throw invalid(text, "unknown part '" + part + "'");
            }
        }
        require(allocatable.containsKey("cpu") && allocatable.containsKey("memory"), text,
                "cpu and memory are required (what the node offers pods)");
        allocatable.put("pods", "110");
        allocatable.put("ephemeral-storage", "100Gi");
        return new NodeTemplate(slot, poolName(size), size, spot, allocatable, List.of());
    }

    /** {@code Standard_E2as_v5} → {@code e2asv5}: the size's letters and digits, as an AKS pool name allows. */
    static String poolName(String size) {
        String name = size.toLowerCase(Locale.ROOT).replaceFirst("^standard_", "").replaceAll("[^a-z0-9]", "");
        return name.substring(0, Math.min(POOL_NAME_LENGTH, name.length()));
    }

    private static String checked(Pattern pattern, String value, String text, String key) {
        require(pattern.matcher(value).matches(), text, key + " '" + value + "' is not a "
                + (key.equals("memory") ? "quantity such as 16Gi" : key.equals("cpu") ? "CPU count such as 2 or 1900m"
                : "count"));
        return value;
    }

    private static void require(boolean condition, String text, String problem) {
        if (!condition) {
            throw invalid(text, problem);
        }
    }

    private static IllegalArgumentException invalid(String text, String problem) {
        return new IllegalArgumentException("--node-type '" + text + "': " + problem + "; expected " + SYNTAX);
    }
}
