package dev.gantry.backend.cyclecloud.internal.cyclecloud;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalInt;

/**
 * Reads CycleCloud's answer to {@code GET /clusters/{cluster}/status} (the {@code ClusterStatus} resource of the
 * CycleCloud 8 REST API reference) into a {@link ClusterLayout}: a pure function with golden tests.
 *
 * <p>Only the fields the layout uses are read, and each must have the type the reference gives it; every other field
 * is ignored, so that CycleCloud can add fields (it does: {@code familyQuotaCount}, {@code regionalQuotaCount},
 * {@code lastCapacityFailure}, ...). Every missing or mistyped field is reported at once, each by its path.
 *
 * <p>The reference publishes the status, node array and bucket fields. It does not publish the node array's own
 * record ({@code nodearrays[].nodearray}, "a node record", type object): the attributes read from it
 * ({@code Interruptible}, {@code Configuration.slurm.partition}, {@code .hpc}, {@code .autoscale}) are read as
 * Azure's own cyclecloud-slurm and cyclecloud-scalelib read them, and are optional.
 */
public final class ClusterStatusParser {
    private static final ObjectMapper JSON = new ObjectMapper();
    /** The fix for a body that does not follow the contract: something other than CycleCloud 8 answered. */
    private static final String FIX = "check that url is the address of CycleCloud 8 or later (its REST API, not a "
            + "proxy's login page)";

    private ClusterStatusParser() {
    }

    /**
     * Parses a status body.
     *
     * @param cluster the cluster the status was asked for (the body does not name it)
     * @param json the response body
     * @throws GantryException with {@link ErrorCode#REMOTE_ERROR}, one problem per missing or mistyped field, when
     *                         the body does not follow the contract
     */
    public static ClusterLayout parse(String cluster, String json) {
        JsonNode root;
        try {
            root = JSON.readTree(json);
        } catch (JsonProcessingException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "CycleCloud's status for cluster '" + cluster
                    + "' is not JSON (" + e.getOriginalMessage() + "); " + FIX, e);
        }
        Fields fields = new Fields();
        ClusterLayout layout = null;
        if (root == null || !root.isObject()) {
            fields.problems.add(Problem.of("", "must be a JSON object (ClusterStatus), got " + kind(root)));
        } else {
            layout = cluster(cluster, root, fields);
        }
        if (!fields.problems.isEmpty()) {
            StringBuilder message = new StringBuilder("CycleCloud's status for cluster '" + cluster
                    + "' does not follow the ClusterStatus contract of GET /clusters/{cluster}/status:");
            for (Problem problem : fields.problems) {
                message.append("\n  ").append(problem);
            }
            message.append("\n").append(FIX);
            throw new GantryException(ErrorCode.REMOTE_ERROR, message.toString(), fields.problems, null);
        }
        return layout;
    }

    private static ClusterLayout cluster(String cluster, JsonNode root, Fields fields) {
        long maxCount = fields.whole(root, "", "maxCount");
        long maxCoreCount = fields.whole(root, "", "maxCoreCount");
        Optional<String> state = fields.optionalText(root, "", "state");
        Optional<String> targetState = fields.optionalText(root, "", "targetState");
        List<NodeArray> arrays = new ArrayList<>();
        JsonNode list = fields.array(root, "", "nodearrays");
        for (int i = 0; i < list.size(); i++) {
            String path = "nodearrays[" + i + "]";
            JsonNode entry = list.get(i);
            if (!entry.isObject()) {
                fields.problems.add(Problem.of(path, "must be an object (a node array's status), got " + kind(entry)));
                continue;
            }
            arrays.add(nodeArray(path, entry, fields));
        }
        return new ClusterLayout(cluster, state, targetState, maxCount, maxCoreCount, arrays);
    }

    private static NodeArray nodeArray(String path, JsonNode status, Fields fields) {
        String name = fields.text(status, path, "name");
        long maxCount = fields.whole(status, path, "maxCount");
        long maxCoreCount = fields.whole(status, path, "maxCoreCount");
        JsonNode record = fields.object(status, path, "nodearray");
        String recordPath = path + ".nodearray";
        boolean spot = fields.optionalBoolean(record, recordPath, "Interruptible").orElse(false);
        JsonNode configuration = fields.optionalObject(record, recordPath, "Configuration");
        JsonNode slurm = fields.optionalObject(configuration, recordPath + ".Configuration", "slurm");
        String slurmPath = recordPath + ".Configuration.slurm";
        // cyclecloud-slurm (partition.py): partition = slurm.partition or the array's name; arrays with
        // slurm.autoscale false get no partition; slurm.hpc is true unless it reads "false".
        Optional<String> configured = fields.optionalText(slurm, slurmPath, "partition");
        boolean autoscale = fields.optionalBoolean(slurm, slurmPath, "autoscale").orElse(true);
        boolean hpc = fields.optionalBoolean(slurm, slurmPath, "hpc").orElse(true);
        Optional<String> partition = autoscale ? Optional.of(configured.orElse(name)) : Optional.empty();
        List<NodeArray.Bucket> buckets = new ArrayList<>();
        JsonNode list = fields.array(status, path, "buckets");
        for (int j = 0; j < list.size(); j++) {
            String bucketPath = path + ".buckets[" + j + "]";
            JsonNode entry = list.get(j);
            if (!entry.isObject()) {
                fields.problems.add(Problem.of(bucketPath, "must be an object (a bucket), got " + kind(entry)));
                continue;
            }
            buckets.add(bucket(bucketPath, entry, fields));
        }
        return new NodeArray(name, partition, spot, hpc, maxCount, maxCoreCount, buckets);
    }

    private static NodeArray.Bucket bucket(String path, JsonNode bucket, Fields fields) {
        // The reference marks "definition" optional, yet it is the only place a bucket names its VM size (and what
        // the create-nodes API takes back); a bucket without one cannot be mapped, so it is reported, not guessed.
        JsonNode definition;
        if (bucket.get("definition") == null || bucket.get("definition").isNull()) {
            fields.problems.add(Problem.of(path + ".definition", "missing, so the bucket names no VM size "
                    + "(definition.machineType) and cannot be mapped to a partition"));
            definition = null;
        } else {
            definition = fields.object(bucket, path, "definition");
        }
        String vmSize = definition == null ? "" : fields.text(definition, path + ".definition", "machineType");
        boolean valid = fields.bool(bucket, path, "valid");
        // Required by the reference, missing from its own example: read when present, needed only when invalid.
        Optional<String> invalidReason = fields.optionalText(bucket, path, "invalidReason")
                .filter(reason -> !valid);
        long maxCount = fields.whole(bucket, path, "maxCount");
        long activeCount = fields.whole(bucket, path, "activeCount");
        long availableCount = fields.whole(bucket, path, "availableCount");
        long quotaCount = fields.whole(bucket, path, "quotaCount");
        JsonNode machine = fields.object(bucket, path, "virtualMachine");
        String machinePath = path + ".virtualMachine";
        long vcpus = fields.whole(machine, machinePath, "vcpuCount");
        double memory = fields.number(machine, machinePath, "memory");
        // gpuCount: required by the reference, absent from its example; an absent count is not a zero count.
        OptionalInt gpus = fields.optionalWhole(machine, machinePath, "gpuCount");
        boolean infiniband = fields.bool(machine, machinePath, "infiniband");
        return new NodeArray.Bucket(vmSize, valid, invalidReason, maxCount, activeCount, availableCount, quotaCount,
                (int) Math.min(Integer.MAX_VALUE, vcpus), memory, gpus, infiniband);
    }

    private static String kind(JsonNode node) {
        if (node == null || node.isMissingNode()) {
            return "nothing";
        }
        String text = node.toString();
        String shown = text.length() > 40 ? text.substring(0, 40) + "..." : text;
        return node.getNodeType().name().toLowerCase(Locale.ROOT) + " " + shown;
    }

    /**
     * Reads typed fields, recording a problem (and returning a placeholder) for each missing or mistyped one, so
     * that one parse reports them all.
     */
    private static final class Fields {
        private static final JsonNode NONE = JSON.createObjectNode();
        private final List<Problem> problems = new ArrayList<>();

        private JsonNode present(JsonNode parent, String path, String name, String type) {
            JsonNode value = parent.get(name);
            if (value == null || value.isNull()) {
                problems.add(Problem.of(at(path, name), "missing; the ClusterStatus contract requires it (" + type
                        + ")"));
                return null;
            }
            return value;
        }

        long whole(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "a whole number");
            if (value == null) {
                return 0;
            }
            if (!value.isIntegralNumber() || !value.canConvertToLong() || value.asLong() < 0) {
                problems.add(Problem.of(at(path, name), "must be a whole number of at least 0, got " + kind(value)));
                return 0;
            }
            return value.asLong();
        }

        OptionalInt optionalWhole(JsonNode parent, String path, String name) {
            JsonNode value = parent.get(name);
            if (value == null || value.isNull()) {
                return OptionalInt.empty();
            }
            if (!value.isIntegralNumber() || !value.canConvertToInt() || value.asInt() < 0) {
                problems.add(Problem.of(at(path, name), "must be a whole number of at least 0, got " + kind(value)));
                return OptionalInt.empty();
            }
            return OptionalInt.of(value.asInt());
        }

        double number(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "a number");
            if (value == null) {
                return 0;
            }
            if (!value.isNumber() || value.asDouble() < 0) {
                problems.add(Problem.of(at(path, name), "must be a number of at least 0, got " + kind(value)));
                return 0;
            }
            return value.asDouble();
        }

        boolean bool(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "true or false");
            if (value == null) {
                return false;
            }
            if (!value.isBoolean()) {
                problems.add(Problem.of(at(path, name), "must be true or false, got " + kind(value)));
                return false;
            }
            return value.asBoolean();
        }

        /**
         * An optional flag; cyclecloud-slurm compares a flag's text with "true", so a string "true" or "false" reads
         * the same as the boolean.
         */
        Optional<Boolean> optionalBoolean(JsonNode parent, String path, String name) {
            JsonNode value = parent.get(name);
            if (value == null || value.isNull()) {
                return Optional.empty();
            }
            if (value.isBoolean()) {
                return Optional.of(value.asBoolean());
            }
            if (value.isTextual() && (value.asText().equalsIgnoreCase("true") || value.asText()
                    .equalsIgnoreCase("false"))) {
                return Optional.of(Boolean.parseBoolean(value.asText().toLowerCase(Locale.ROOT)));
            }
            problems.add(Problem.of(at(path, name), "must be true or false, got " + kind(value)));
            return Optional.empty();
        }

        String text(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "a non-empty string");
            if (value == null) {
                return "";
            }
            if (!value.isTextual() || value.asText().isBlank()) {
                problems.add(Problem.of(at(path, name), "must be a non-empty string, got " + kind(value)));
                return "";
            }
            return value.asText();
        }

        Optional<String> optionalText(JsonNode parent, String path, String name) {
            JsonNode value = parent.get(name);
            if (value == null || value.isNull()) {
                return Optional.empty();
            }
            if (!value.isTextual() || value.asText().isBlank()) {
                problems.add(Problem.of(at(path, name), "must be a non-empty string when present, got "
                        + kind(value)));
                return Optional.empty();
            }
            return Optional.of(value.asText());
        }

        JsonNode object(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "an object");
            if (value == null) {
                return NONE;
            }
            if (!value.isObject()) {
                problems.add(Problem.of(at(path, name), "must be an object, got " + kind(value)));
                return NONE;
            }
            return value;
        }

        JsonNode optionalObject(JsonNode parent, String path, String name) {
            JsonNode value = parent.get(name);
            if (value == null || value.isNull()) {
                return NONE;
            }
            if (!value.isObject()) {
                problems.add(Problem.of(at(path, name), "must be an object when present, got " + kind(value)));
                return NONE;
            }
            return value;
        }

        JsonNode array(JsonNode parent, String path, String name) {
            JsonNode value = present(parent, path, name, "a list");
            if (value == null) {
                return JSON.createArrayNode();
            }
            if (!value.isArray()) {
                problems.add(Problem.of(at(path, name), "must be a list, got " + kind(value)));
                return JSON.createArrayNode();
            }
            return value;
        }

        private static String at(String path, String name) {
            return path.isEmpty() ? name : path + "." + name;
        }
    }
}
