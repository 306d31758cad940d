package dev.gantry.backend.manual.internal.settings;

import dev.gantry.api.Problem;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ProvisionedHost;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import java.util.regex.Pattern;

/**
 * The {@code provisioned} key: VMs Gantry provisioned ({@code gantry vm up}) used as SSH hosts, named as a list of VM
 * names, {@code prefix-*} patterns or {@code *}. Each matched VM becomes a host whose own settings come from its
 * record (address, login user, VM size, spot, labels, and its host key pinned to the fingerprints read on the VM when
 * it was provisioned); {@code defaults.*} fill the rest (identity, port, work directory, ...), as for
 * {@code hosts[*]}.
 */
public final class ProvisionedReferences {
    public static final String KEY = "provisioned";
    // '_' too: the instances of a scale set are named <set>_<instanceId>, as Azure names them.
    private static final Pattern REFERENCE = Pattern.compile("[A-Za-z0-9*][A-Za-z0-9_.*-]{0,63}");

    /** One matched VM as the per-host settings {@link Inventory} binds, and the key that referred to it. */
    public record Match(String key, BackendConfig own) {
    }

    private ProvisionedReferences() {
    }

    /** Whether the configuration refers to provisioned VMs at all (then, and only then, the inventory is read). */
    public static boolean given(BackendConfig config) {
        return !config.getList(KEY).isEmpty() || config.get(KEY).isPresent();
    }

    /**
     * The VMs the references match, each once, in the order referred to. A reference that matches nothing, or a
     * matched VM whose host keys were never recorded, is a problem naming the key, the value and the VMs there are.
     */
    public static List<Match> resolve(BackendConfig config, Supplier<List<ProvisionedHost>> inventory,
                               List<Problem> problems) {
        List<String> references = config.getList(KEY);
        boolean oneValue = config.get(KEY).isPresent();
        if (references.isEmpty()) {
            problems.add(problem(config, KEY, "is empty; name VMs that gantry vm up created (gantry vm list shows "
                    + "them), a prefix pattern such as train-*, or * for all"));
            return List.of();
        }
        List<ProvisionedHost> vms = inventory.get();
        Map<String, Match> matched = new LinkedHashMap<>();
        for (int i = 0; i < references.size(); i++) {
            String reference = references.get(i).strip();
            String key = oneValue ? KEY : KEY + "[" + i + "]";
            if (!REFERENCE.matcher(reference).matches()) {
                problems.add(problem(config, key, "'" + reference + "' is not a VM name or pattern; use the VM "
                        + "names gantry vm list shows, a prefix pattern such as train-*, or *"));
                continue;
            }
            Pattern pattern = glob(reference);
            List<ProvisionedHost> hits = vms.stream().filter(vm -> pattern.matcher(vm.name()).matches()).toList();
            if (hits.isEmpty()) {
                problems.add(problem(config, key, "'" + reference + "' matches no VM Gantry provisioned ("
                        + (vms.isEmpty() ? "there are none; create them with gantry vm up"
                        : "VMs: " + String.join(", ", vms.stream().map(ProvisionedHost::name).toList()))
                        + "); name one of them, or list the host under hosts[*] instead"));
                continue;
            }
            for (ProvisionedHost vm : hits) {
                if (vm.hostKeyFingerprints().isEmpty()) {
                    problems.add(problem(config, key, "VM " + vm.name() + " has no recorded host key (it was "
                            + "provisioned by an older Gantry), so SSH to it cannot be verified; run gantry vm up "
                            + "again with its name prefix to read its keys through Azure Run Command, or list it "
                            + "under hosts[*] with its hostKeyFingerprint"));
                    continue;
                }
                matched.putIfAbsent(vm.name(), new Match(key, own(config, vm)));
            }
        }
        return List.copyOf(matched.values());
    }

    /** The VM's own settings, from its record; everything else comes from {@code defaults.*}. */
    private static BackendConfig own(BackendConfig config, ProvisionedHost vm) {
        Map<String, String> own = new LinkedHashMap<>();
        own.put("name", vm.name());
        own.put("address", vm.address());
        own.put("user", vm.adminUser());
        own.put("hostKeyFingerprint", String.join(",", vm.hostKeyFingerprints()));
        own.put("vmSize", vm.vmSize());
        own.put("spot", Boolean.toString(vm.spot()));
        // Gantry named the VM, so its Scheduled Events list it by this name: no metadata question needed.
        own.put("vmName", vm.name());
        List<String> labels = new ArrayList<>();
        vm.labels().forEach((k, v) -> labels.add(k + "=" + v));
        if (!labels.isEmpty()) {
            own.put("labels", String.join(",", labels));
        }
        return new BackendConfig(config.backend(), own);
    }

    /** {@code *} stands for any run of characters; everything else is literal (Azure compares names ignoring case). */
    private static Pattern glob(String reference) {
        List<String> parts = new ArrayList<>();
        for (String part : reference.split("\\*", -1)) {
            parts.add(Pattern.quote(part));
        }
        return Pattern.compile(String.join(".*", parts), Pattern.CASE_INSENSITIVE);
    }

    private static Problem problem(BackendConfig config, String key, String message) {
        return Problem.of("backends." + config.backend() + "." + key, message);
    }
}
