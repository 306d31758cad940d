package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.core.Gantry;
import dev.gantry.core.provision.DoctorCheck;
import dev.gantry.core.provision.ProvisionRequest;
import dev.gantry.core.provision.ProvisionedVm;
import dev.gantry.core.provision.ReadinessCheck;
import dev.gantry.core.provision.ReadinessWait;
import dev.gantry.core.provision.TcpPortCheck;
import dev.gantry.core.provision.VmInventory;
import dev.gantry.core.provision.VmInventoryEntry;
import dev.gantry.core.provision.VmProvisioner;
import dev.gantry.images.BootOptions;
import dev.gantry.images.BootScript;
import dev.gantry.images.ImageCatalog;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;
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

    /**
     * The VM inventory of the Gantry state directory ({@code STATE_DIR/vms/vms.json}), which the manual backend's
     * {@code provisioned} key reads as well. Earlier versions kept it in {@code ~/.gantry/vms}: such a file is moved
     * over once (VMs bill until deleted, so none may be forgotten), or, when both exist, named in a warning.
     */
    static VmInventory inventory(Verb verb) {
        VmInventory inventory = verb.root.gantry().vmInventory();
        Path legacy = verb.env().home().resolve(".gantry").resolve("vms").resolve(VmInventory.FILE_NAME);
        if (legacy.equals(inventory.file()) || !Files.exists(legacy)) {
            return inventory;
        }
        if (Files.exists(inventory.file())) {
            verb.env().err().println("gantry: warning: " + legacy + " (written by an earlier version) is not read; "
                    + "the inventory is " + inventory.file() + ". Merge its VMs into it, or delete them in the Azure "
                    + "portal, then remove " + legacy);
            return inventory;
        }
        try {
            Files.createDirectories(inventory.file().getParent());
            Files.move(legacy, inventory.file(), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot move the VM inventory of an earlier version "
                    + "from " + legacy + " to " + inventory.file() + " (" + e.getMessage() + "); move it yourself");
        }
        verb.env().err().println("gantry: moved the VM inventory from " + legacy + " to " + inventory.file());
        return inventory;
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
            + "and pass doctor, and records them in STATE_DIR/vms/vms.json.",
            "Running it again with the same name prefix reuses the VMs it made."})
    static final class Up extends Verb {
        private static final Duration READY_INTERVAL = Duration.ofSeconds(10);

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

        @Option(names = "--skip-doctor", description = "Wait only until port 22 answers; do not run doctor on the "
                + "VMs over SSH.")
        boolean skipDoctor;

        @Option(names = "--wait-timeout", paramLabel = "DURATION", defaultValue = "15m",
                converter = DurationConverter.class,
                description = "How long to wait for the VMs to be ready (default: ${DEFAULT-VALUE}).")
        Duration waitTimeout;

        @Override
        public Integer call() throws IOException {
            Gantry gantry = root.gantry();
            Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
            Plan plan = gantry.plan(gantry.load(file));
            Path publicKey = publicKey();
            String key = Files.readString(publicKey, StandardCharsets.UTF_8).strip();
            // Decided before anything is created: a doctor that cannot log in would leave billing VMs behind.
            ReadinessCheck readiness = skipDoctor ? TcpPortCheck.ssh()
                    : TcpPortCheck.ssh().then(new DoctorCheck(gantry.registry(), doctorSettings(gantry, publicKey),
                            gantry.backendContext(DoctorCheck.BACKEND), Optional.of(plan)));
            String cloudInit = new BootScript(ImageCatalog.builtIn()).cloudConfig(plan, BootOptions.defaults());
            ProvisionRequest request = ProvisionRequest.forPlan(plan, subscription(this, subscription), resourceGroup,
                    adminUser, key, cloudInit, namePrefix != null ? namePrefix : plan.workload().name());
            if (count != null) {
                request = request.withCount(count);
            }
            if (publicIpSource != null) {
                request = request.withPublicIp(publicIpSource);
            }
            env().err().println("gantry: creating " + request.count() + " x " + plan.vmSize().name() + " in "
                    + plan.region() + (plan.spot() ? " (spot)" : "") + "; VMs bill until 'gantry vm down'");
            env().err().println("gantry: then reading their SSH host keys through Azure Run Command and waiting up to "
                    + ReadinessWait.readable(waitTimeout) + " until they answer SSH"
                    + (skipDoctor ? "" : " and pass doctor"));
            env().err().flush();
            Duration interval = waitTimeout.compareTo(READY_INTERVAL) < 0 ? waitTimeout : READY_INTERVAL;
            VmProvisioner provisioner = new VmProvisioner(env().azure(), inventory(this),
                    new ReadinessWait(readiness, waitTimeout, interval, Clock.systemUTC(),
                            pause -> Thread.sleep(pause.toMillis())), Clock.systemUTC());
            java.util.List<VmInventoryEntry> vms = new ArrayList<>();
            for (ProvisionedVm vm : provisioner.up(request)) {
                vms.add(vm.vm());
            }
            print(this, vms);
            env().err().println("gantry: ready; run jobs on them with backends.manual: {transport: ssh, provisioned: ["
                    + request.namePrefix() + "-*]} (and defaults.identityFile)");
            return Main.OK;
        }

        /**
         * The manual backend's settings for the doctor: the configured ones, logging in with {@code --identity}, else
         * the private key beside the public key installed on the VMs (the one login sure to work), else the
         * configuration's own {@code defaults.identityFile} or {@code defaults.agent}.
         */
        private Map<String, String> doctorSettings(Gantry gantry, Path publicKey) {
            Map<String, String> settings = new TreeMap<>(gantry.config().backendConfig(DoctorCheck.BACKEND).values());
            Optional<Path> key = Optional.empty();
            if (identity != null) {
                Path given = identity.isAbsolute() ? identity : env().workingDirectory().resolve(identity);
                if (!Files.isReadable(given)) {
                    throw new GantryException(ErrorCode.USAGE, "--identity: cannot read " + given);
                }
                key = Optional.of(given);
            } else {
                String name = publicKey.getFileName().toString();
                if (name.endsWith(".pub")) {
                    Path beside = publicKey.resolveSibling(name.substring(0, name.length() - ".pub".length()));
                    if (Files.isReadable(beside)) {
                        key = Optional.of(beside);
                    }
                }
            }
            if (key.isPresent()) {
                settings.remove("defaults.agent");
                settings.put("defaults.identityFile", key.get().toString());
            } else if (!settings.containsKey("defaults.identityFile")
                    && !"true".equals(settings.get("defaults.agent"))) {
                throw new GantryException(ErrorCode.USAGE, "doctor cannot log in to the new VMs: there is no private "
                        + "key beside " + publicKey + " and backends.manual sets neither defaults.identityFile nor "
                        + "defaults.agent; pass --identity FILE, or --skip-doctor to wait for port 22 only");
            }
            return settings;
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
            print(this, inventory(this).list());
            return Main.OK;
        }
    }

    @Command(name = "down", description = "Delete VMs Gantry created, with their disks, NICs and public IPs.")
    static final class Down extends Verb {
        @Parameters(arity = "0..*", paramLabel = "NAME", description = "VM names (see 'gantry vm list').")
        java.util.List<String> names = new ArrayList<>();

        @Option(names = "--all", description = "Delete every VM in the inventory.")
        boolean all;

        @Override
        public Integer call() {
            VmInventory inventory = inventory(this);
            java.util.List<String> targets = all ? inventory.list().stream().map(VmInventoryEntry::name).toList() : names;
            if (targets.isEmpty()) {
                throw new GantryException(ErrorCode.USAGE, "name the VMs to delete, or pass --all; 'gantry vm list' "
                        + "shows them");
            }
            for (String name : targets) {
                if (inventory.find(name).isEmpty()) {
                    throw new GantryException(ErrorCode.USAGE, "no VM '" + name + "' in the inventory; known: "
                            + String.join(", ", inventory.list().stream().map(VmInventoryEntry::name).toList()));
                }
            }
            new VmProvisioner(env().azure(), inventory, ReadinessWait.sshPort(), Clock.systemUTC()).down(targets);
            env().out().println("gantry: deleted " + String.join(", ", targets));
            return Main.OK;
        }
    }
}
