package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.VmUp;
import dev.gantry.Vms;
import dev.gantry.model.VmInventoryEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "vm", description = "Create and delete the Azure VMs that the manual backend runs on.",
        subcommands = {VmCommand.Up.class, VmCommand.List.class, VmCommand.Down.class})
final class VmCommand implements Runnable {
    @picocli.CommandLine.Spec
    picocli.CommandLine.Model.CommandSpec spec;

    @Override
    public void run() {
        spec.commandLine().usage(spec.commandLine().getOut());
    }

    /** The facade's VMs; its notices go to stderr, as the CLI's own do. */
    static Vms vms(Verb verb) {
        return verb.root.gantry().vms(verb.env().azure(), notice -> {
            verb.env().err().println("gantry: " + notice);
            verb.env().err().flush();
        });
    }

    /** The facade's VMs, their notices printed above the progress line so that the two do not run together. */
    static Vms vms(Verb verb, ProgressLine progress) {
        return verb.root.gantry().vms(verb.env().azure(), notice -> progress.println("gantry: " + notice));
    }

    static String subscription(Verb verb, String given) {
        String id = given != null ? given : verb.env().environment().get("AZURE_SUBSCRIPTION_ID");
        if (id == null || id.isBlank()) {
            throw new GantryException(ErrorCode.USAGE, "no subscription: pass --subscription ID or set "
                    + "AZURE_SUBSCRIPTION_ID (az account show --query id -o tsv prints yours)");
        }
        return id;
    }

    static void print(Verb verb, java.util.List<VmInventoryEntry> vms) {
        if (verb.output.json()) {
            ArrayNode array = Json.array();
            for (VmInventoryEntry vm : vms) {
                ObjectNode node = array.addObject();
                node.put("name", vm.name());
                node.put("resourceGroup", vm.resourceGroup());
                node.put("region", vm.region());
                node.put("vmSize", vm.vmSize());
                node.put("spot", vm.spot());
                node.put("adminUser", vm.adminUser());
                node.put("privateIp", vm.privateIp());
                vm.publicIp().ifPresentOrElse(ip -> node.put("publicIp", ip), () -> node.putNull("publicIp"));
                vm.availabilitySetId().ifPresentOrElse(id -> node.put("availabilitySetId", id),
                        () -> node.putNull("availabilitySetId"));
                vm.scaleSetId().ifPresentOrElse(id -> node.put("scaleSetId", id), () -> node.putNull("scaleSetId"));
                node.put("createdAt", vm.createdAt().toString());
                ObjectNode labels = node.putObject("labels");
                vm.labels().forEach(labels::put);
                node.put("hostKeyPinned", vm.hostKeyPinned());
                ArrayNode keys = node.putArray("hostKeyFingerprints");
                vm.hostKeyFingerprints().forEach(keys::add);
            }
            Json.print(verb.env().out(), array);
        } else {
            Table table = new Table("NAME", "SIZE", "REGION", "CAPACITY", "PRIVATE IP", "PUBLIC IP", "RESOURCE GROUP",
                    "HOST KEY");
            for (VmInventoryEntry vm : vms) {
                table.row(vm.name(), vm.vmSize(), vm.region(), vm.spot() ? "spot" : "on-demand", vm.privateIp(),
                        vm.publicIp().orElse("-"), vm.resourceGroup(),
                        vm.hostKeyPinned() ? "pinned" : "not recorded (run vm up again)");
            }
            table.print(verb.env().out());
        }
    }

    @Command(name = "up", description = {"Plan SPEC and create its VMs: the planned size, image and capacity (spot with "
            + "eviction policy Delete and a price cap of on-demand), Gantry's cloud-init boot script, your SSH key, no "
            + "public IP unless asked. Reads their SSH host keys through Azure Run Command, waits until they answer SSH "
            + "and pass doctor, and records them in STATE_DIR/vms/vms.json. The VMs of an RDMA (InfiniBand) size share "
            + "one fabric: in one availability set, or, in a zone, as the instances of one scale set limited to a "
            + "single placement group.",
            "Running it again with the same name prefix reuses the VMs it made."})
    static final class Up extends Verb {
        @Parameters(index = "0", paramLabel = "SPEC", description = "Workload spec whose plan decides the VMs.")
        Path spec;

        @Option(names = "--resource-group", paramLabel = "RG", required = true,
                description = "Resource group to create them in (created when absent).")
        String resourceGroup;

        @Option(names = "--subscription", paramLabel = "ID", description = "Default: $AZURE_SUBSCRIPTION_ID.")
        String subscription;

        @Option(names = "--count", paramLabel = "N", description = "Number of VMs (default: the plan's nodes).")
        Integer count;

        @Option(names = "--admin-user", paramLabel = "USER", defaultValue = "azureuser",
                description = "Login user (default: ${DEFAULT-VALUE}).")
        String adminUser;

        @Option(names = "--ssh-key", paramLabel = "FILE", description = "SSH public key (default: ~/.ssh/id_ed25519.pub, "
                + "else ~/.ssh/id_rsa.pub).")
        Path sshKey;

        @Option(names = "--public-ip", paramLabel = "SOURCE", description = "Give each VM a public IP with SSH open to "
                + "SOURCE only (an address, a CIDR or a service tag).")
        String publicIpSource;

        @Option(names = "--name-prefix", paramLabel = "PREFIX", description = "VM names are PREFIX-1..N (default: the "
                + "workload's name).")
        String namePrefix;

        @Option(names = "--identity", paramLabel = "FILE", description = "Private key doctor logs in with (default: "
                + "the key beside the --ssh-key public key, else backends.manual.defaults.identityFile or agent).")
        Path identity;

        @Option(names = "--zone", paramLabel = "ZONE", description = "Availability zone for the VMs (1, 2 or 3; "
                + "one of the plan's zones when it names any; default: the plan's first zone, else none, regional "
                + "VMs; an RDMA plan that names none takes the first zone spec.zones asks). An RDMA plan's VMs in a "
                + "zone are the instances of one scale set PREFIX-fabric in it, one placement group (at most 100 "
                + "VMs); regional ones share an availability set.")
        String zone;

        @Option(names = "--skip-doctor", description = "Wait only until port 22 answers; do not run doctor on the "
                + "VMs over SSH.")
        boolean skipDoctor;

        @Option(names = "--wait-timeout", paramLabel = "DURATION", defaultValue = "15m",
                converter = DurationConverter.class,
                description = "How long to wait for the VMs to be ready (default: ${DEFAULT-VALUE}).")
        Duration waitTimeout;

        @Override
        public Integer call() {
            Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
            Optional<Path> login = Optional.ofNullable(identity).map(given -> {
                Path path = given.isAbsolute() ? given : env().workingDirectory().resolve(given);
                if (!Files.isReadable(path)) {
                    throw new GantryException(ErrorCode.USAGE, "--identity: cannot read " + path);
                }
                return path;
            });
            String subscriptionId = subscription(this, subscription);
            // The plan keeps to what the subscription can start: its sizes, zones and vCPU quota (docs/advisor.md).
            QuotaOption.planWithin(root.gantry(), env(), subscriptionId);
            VmUp request = new VmUp(file, subscriptionId, resourceGroup, Optional.ofNullable(count),
                    adminUser, publicKey(), login, Optional.ofNullable(publicIpSource),
                    Optional.ofNullable(namePrefix), skipDoctor, waitTimeout, Optional.ofNullable(zone));
            java.util.List<VmInventoryEntry> vms;
            try (ProgressLine progress = ProgressLine.of(this).ticking()) {
                vms = vms(this, progress).up(request, progress);
            }
            print(this, vms);
            return Main.OK;
        }

        private Path publicKey() {
            if (sshKey != null) {
                Path file = sshKey.isAbsolute() ? sshKey : env().workingDirectory().resolve(sshKey);
                if (!Files.isReadable(file)) {
                    throw new GantryException(ErrorCode.USAGE, "--ssh-key: cannot read " + file);
                }
                return file;
            }
            for (String name : new String[] {"id_ed25519.pub", "id_rsa.pub"}) {
                Path file = env().home().resolve(".ssh").resolve(name);
                if (Files.isReadable(file)) {
                    return file;
                }
            }
            throw new GantryException(ErrorCode.USAGE, "no SSH public key in ~/.ssh (id_ed25519.pub or id_rsa.pub); "
                    + "create one with ssh-keygen -t ed25519, or pass --ssh-key FILE");
        }
    }

    @Command(name = "list", description = "The VMs Gantry created and has not deleted.")
    static final class List extends Verb {
        @Override
        public Integer call() {
            print(this, vms(this).list());
            return Main.OK;
        }
    }

    @Command(name = "down", description = "Delete VMs Gantry created, with their disks, NICs and public IPs (a "
            + "scale set's instances through the set), and the availability set or scale set Gantry made for them "
            + "with the last of its VMs.")
    static final class Down extends Verb {
        @Parameters(arity = "0..*", paramLabel = "NAME", description = "VM names (see 'gantry vm list').")
        java.util.List<String> names = new ArrayList<>();

        @Option(names = "--all", description = "Delete every VM in the inventory.")
        boolean all;

        @Override
        public Integer call() {
            Vms vms = vms(this);
            java.util.List<String> targets = all ? vms.list().stream().map(VmInventoryEntry::name).toList() : names;
            vms.down(targets);
            env().out().println("gantry: deleted " + String.join(", ", targets));
            return Main.OK;
        }
    }
}
