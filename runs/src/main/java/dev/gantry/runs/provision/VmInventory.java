package dev.gantry.runs.provision;

import dev.gantry.model.VmInventoryEntry;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.core.files.AtomicFile;
import java.io.IOException;
import java.nio.channels.FileChannel;
import java.nio.channels.FileLock;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Pattern;
import java.util.Optional;
import java.util.function.UnaryOperator;

/**
 * The VMs Gantry provisioned, kept in {@code vms.json} under a directory. Every change rewrites the file through a
 * temporary file and an atomic rename, under a file lock, so a crash or a second {@code gantry vm up} never leaves a
 * half-written inventory behind.
 */
public final class VmInventory {
    public static final String FILE_NAME = "vms.json";
    /** The inventory's directory under Gantry's state directory ({@code state.dir}, {@code GANTRY_STATE_DIR}). */
    public static final String DIRECTORY = "vms";
    private static final int FORMAT_VERSION = 1;
    private static final Pattern SHA256 = Pattern.compile("SHA256:[A-Za-z0-9+/]{43}");
    private static final ObjectMapper JSON = new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);

    private final Path directory;
    private final Path file;

    public VmInventory(Path directory) {
        this.directory = directory;
        this.file = directory.resolve(FILE_NAME);
    }

    /** The inventory of a Gantry state directory: {@code STATE_DIR/vms/vms.json}. */
    public static VmInventory inStateDirectory(Path stateDirectory) {
        return new VmInventory(stateDirectory.resolve(DIRECTORY));
    }

    public Path file() {
        return file;
    }

    /** Every recorded VM, by name. */
    public synchronized List<VmInventoryEntry> list() {
        return read();
    }

    public synchronized Optional<VmInventoryEntry> find(String name) {
        return read().stream().filter(vm -> vm.name().equals(name)).findFirst();
    }

    /** Records a VM, replacing an entry of the same name. */
    public void put(VmInventoryEntry vm) {
        update(entries -> {
            List<VmInventoryEntry> next = new ArrayList<>(entries);
            next.removeIf(existing -> existing.name().equals(vm.name()));
            next.add(vm);
            return next;
        });
    }

    /** Forgets a VM; forgetting one that is not recorded does nothing. */
    public void remove(String name) {
        update(entries -> {
            List<VmInventoryEntry> next = new ArrayList<>(entries);
            next.removeIf(existing -> existing.name().equals(name));
            return next;
        });
    }

    private synchronized void update(UnaryOperator<List<VmInventoryEntry>> change) {
        try {
            Files.createDirectories(directory);
            // The lock keeps two Gantry processes from interleaving read-modify-write cycles.
            try (FileChannel lockChannel = FileChannel.open(directory.resolve(FILE_NAME + ".lock"),
                    StandardOpenOption.CREATE, StandardOpenOption.WRITE)) {
                FileLock lock = lockChannel.lock();
                try {
                    write(change.apply(read()));
                } finally {
                    lock.release();
                }
            }
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot write the VM inventory " + file + ": " + e, e);
        }
    }

    private List<VmInventoryEntry> read() {
        if (!Files.exists(file)) {
            return List.of();
        }
        JsonNode root;
        try {
            root = JSON.readTree(Files.readString(file, StandardCharsets.UTF_8));
        } catch (JsonProcessingException e) {
            throw corrupt(List.of(Problem.of("", "is not valid JSON: " + e.getOriginalMessage())));
        } catch (IOException e) {
            throw new GantryException(ErrorCode.INTERNAL, "cannot read the VM inventory " + file + ": " + e, e);
        }
        if (root == null || !root.path("vms").isArray()) {
            throw corrupt(List.of(Problem.of("vms", "missing; expected a list of VMs")));
        }
        List<VmInventoryEntry> entries = new ArrayList<>();
        List<Problem> problems = new ArrayList<>();
        for (int i = 0; i < root.path("vms").size(); i++) {
            JsonNode vm = root.path("vms").get(i);
            String at = "vms[" + i + "]";
            List<Problem> own = new ArrayList<>();
            String name = text(vm, "name", at, own);
            String resourceId = text(vm, "resourceId", at, own);
            String resourceGroup = text(vm, "resourceGroup", at, own);
            String region = text(vm, "region", at, own);
            String vmSize = text(vm, "vmSize", at, own);
            String adminUser = text(vm, "adminUser", at, own);
            String privateIp = text(vm, "privateIp", at, own);
            String created = text(vm, "createdAt", at, own);
            String nicId = text(vm, "nicId", at, own);
            String osDiskId = text(vm, "osDiskId", at, own);
            Instant createdAt = null;
            if (created != null) {
                try {
                    createdAt = Instant.parse(created);
                } catch (DateTimeParseException e) {
                    own.add(Problem.of(at + ".createdAt", "'" + created + "' is not an ISO-8601 instant"));
                }
            }
            if (!own.isEmpty()) {
                problems.addAll(own);
                continue;
            }
            // These fields came later: entries written without them read as "no keys recorded", "no labels", "in
            // no availability set" and "no scale set instance".
            List<String> fingerprints = fingerprints(vm, at, own);
            Map<String, String> labels = new TreeMap<>();
            vm.path("labels").fields().forEachRemaining(label -> labels.put(label.getKey(), label.getValue().asText()));
            if (!own.isEmpty()) {
                problems.addAll(own);
                continue;
            }
            entries.add(new VmInventoryEntry(name, resourceId, resourceGroup, region, vmSize, adminUser, privateIp,
                    optional(vm, "publicIp"), vm.path("spot").asBoolean(false), createdAt, nicId,
                    optional(vm, "publicIpId"), osDiskId, fingerprints, labels, optional(vm, "availabilitySetId"),
                    optional(vm, "scaleSetId")));
        }
        if (!problems.isEmpty()) {
            throw corrupt(problems);
        }
        return entries;
    }

    private void write(List<VmInventoryEntry> entries) throws IOException {
        ObjectNode root = JSON.createObjectNode();
        root.put("version", FORMAT_VERSION);
        ArrayNode vms = root.putArray("vms");
        entries.stream().sorted(Comparator.comparing(VmInventoryEntry::name)).forEach(vm -> {
            ObjectNode node = vms.addObject();
            node.put("name", vm.name());
            node.put("resourceId", vm.resourceId());
            node.put("resourceGroup", vm.resourceGroup());
            node.put("region", vm.region());
            node.put("vmSize", vm.vmSize());
            node.put("adminUser", vm.adminUser());
            node.put("privateIp", vm.privateIp());
            vm.publicIp().ifPresent(ip -> node.put("publicIp", ip));
            node.put("spot", vm.spot());
            node.put("createdAt", vm.createdAt().toString());
            node.put("nicId", vm.nicId());
            vm.publicIpId().ifPresent(id -> node.put("publicIpId", id));
            node.put("osDiskId", vm.osDiskId());
            if (vm.hostKeyPinned()) {
                ArrayNode keys = node.putArray("hostKeyFingerprints");
                vm.hostKeyFingerprints().forEach(keys::add);
            }
            if (!vm.labels().isEmpty()) {
                ObjectNode labels = node.putObject("labels");
                vm.labels().forEach(labels::put);
            }
            vm.availabilitySetId().ifPresent(id -> node.put("availabilitySetId", id));
            vm.scaleSetId().ifPresent(id -> node.put("scaleSetId", id));
        });
        AtomicFile.write(file, (JSON.writeValueAsString(root) + "\n").getBytes(StandardCharsets.UTF_8));
    }

    private GantryException corrupt(List<Problem> problems) {
        List<Problem> located = problems.stream()
                .map(p -> Problem.of(p.path(), p.message() + " (in " + file + "; fix or delete the entry)"))
                .toList();
        return GantryException.invalid(ErrorCode.CONFIG_INVALID, located);
    }

    private static String text(JsonNode vm, String field, String at, List<Problem> problems) {
        JsonNode value = vm.path(field);
        if (!value.isTextual() || value.asText().isEmpty()) {
            problems.add(Problem.of(at + "." + field, "missing; expected text"));
            return null;
        }
        return value.asText();
    }

    private static List<String> fingerprints(JsonNode vm, String at, List<Problem> problems) {
        JsonNode keys = vm.path("hostKeyFingerprints");
        if (keys.isMissingNode() || keys.isNull()) {
            return List.of();
        }
        List<String> fingerprints = new ArrayList<>();
        for (int k = 0; k < keys.size(); k++) {
            String fingerprint = keys.get(k).asText("");
            if (!SHA256.matcher(fingerprint).matches()) {
                problems.add(Problem.of(at + ".hostKeyFingerprints[" + k + "]", "'" + fingerprint + "' is not a "
                        + "SHA-256 host key fingerprint (SHA256: and 43 base64 characters)"));
            } else {
                fingerprints.add(fingerprint);
            }
        }
        if (!keys.isArray()) {
            problems.add(Problem.of(at + ".hostKeyFingerprints", "must be a list of SHA256: fingerprints"));
        }
        return fingerprints;
    }

    private static Optional<String> optional(JsonNode vm, String field) {
        JsonNode value = vm.path(field);
        return value.isTextual() && !value.asText().isEmpty() ? Optional.of(value.asText()) : Optional.empty();
    }
}
