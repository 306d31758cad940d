package dev.gantry;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.BackendProvider;
import dev.gantry.azure.arm.ArmConnector;
import dev.gantry.model.PlanOverrides;
import dev.gantry.model.Progress;
import dev.gantry.runs.provision.DoctorCheck;
import dev.gantry.runs.provision.FabricPlacement;
import dev.gantry.runs.provision.ProvisionRequest;
import dev.gantry.runs.provision.ProvisionedVm;
import dev.gantry.runs.provision.ReadinessCheck;
import dev.gantry.runs.provision.ReadinessWait;
import dev.gantry.runs.provision.TcpPortCheck;
import dev.gantry.runs.provision.VmInventory;
import dev.gantry.model.VmInventoryEntry;
import dev.gantry.runs.provision.VmProvisioner;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Clock;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Consumer;

/**
 * The VMs Gantry creates for the manual backend, as the facade offers them ({@link Gantry#vms}): create them for a
 * plan and wait until they are ready for their backend, list them, delete them. Every notice for the user (what is
 * being created, a moved inventory) goes to the given sink; nothing here prints.
 */
public final class Vms {
    private static final Duration READY_INTERVAL = Duration.ofSeconds(10);

    private final Planner planner;
    private final OpenBackends backends;
    private final ArmConnector azure;
    private final Path home;
    private final Consumer<String> notices;

    Vms(Planner planner, OpenBackends backends, ArmConnector azure, Path home, Consumer<String> notices) {
        this.planner = Objects.requireNonNull(planner, "planner");
        this.backends = Objects.requireNonNull(backends, "backends");
        this.azure = Objects.requireNonNull(azure, "azure");
        this.home = Objects.requireNonNull(home, "home");
        this.notices = Objects.requireNonNull(notices, "notices");
    }

    /** {@return the VMs Gantry created and has not deleted, as its inventory records them} */
    public List<VmInventoryEntry> list() {
        return inventory().list();
    }

    /**
     * Plans the spec, creates its VMs with Gantry's boot script and waits until they answer SSH and, unless
     * skipped, pass the backend's doctor. Running it again with the same name prefix reuses the VMs it made.
     *
     * @throws GantryException USAGE when the doctor could not log in to the new VMs: decided before anything is
     *     created, since a doctor that cannot log in would leave billing VMs behind
     * @param request the spec, subscription, login and wait settings
     * @return the VMs, ready
     */
    public List<VmInventoryEntry> up(VmUp request) {
        return up(request, Progress.NONE);
    }

    /**
     * As {@link #up(VmUp)}, telling {@code progress} what it is doing while it waits: creating the VMs, reading their
     * host keys, waiting until they answer SSH and pass doctor (each can take minutes).
     *
     * @param request the spec, subscription, login and wait settings
     * @param progress told of each phase and wait
     * @return the VMs, ready
     * @throws GantryException USAGE as {@link #up(VmUp)} throws it
     */
    public List<VmInventoryEntry> up(VmUp request, Progress progress) {
        Objects.requireNonNull(progress, "progress");
        Plan plan = planner.plan(planner.load(request.spec()), PlanOverrides.none());
        String key = readPublicKey(request.publicKeyFile());
        ReadinessCheck readiness = TcpPortCheck.ssh();
        if (!request.skipDoctor()) {
            Optional<Path> loginKey = request.identity().or(() -> beside(request.publicKeyFile()));
            DoctorCheck doctor = new DoctorCheck(backends.registry(), planner.config().backendConfig(DoctorCheck.BACKEND),
                    backends.context(DoctorCheck.BACKEND), Optional.of(plan), loginKey);
            List<String> problems = doctor.loginProblems();
            if (!problems.isEmpty()) {
                throw new GantryException(ErrorCode.USAGE, "doctor cannot log in to the new VMs: there is no private "
                        + "key beside " + request.publicKeyFile() + " and " + String.join("; ", problems)
                        + "; pass --identity FILE, or --skip-doctor to wait for port 22 only");
            }
            readiness = readiness.then(doctor);
        }
        String cloudInit = plan.boot().cloudConfig().orElseThrow(() -> new GantryException(ErrorCode.INTERNAL,
                "the plan for " + plan.workload().name() + " has no boot config"));
        ProvisionRequest provision = ProvisionRequest.forPlan(plan, request.subscription(), request.resourceGroup(),
                request.adminUser(), key, cloudInit, request.namePrefix().orElse(plan.workload().name()));
        if (request.count().isPresent()) {
            provision = provision.withCount(request.count().get());
        }
        if (request.publicIpSource().isPresent()) {
            provision = provision.withPublicIp(request.publicIpSource().get());
        }
        Optional<String> zone = FabricPlacement.zone(plan, request.zone());
        if (zone.isPresent()) {
            provision = provision.withZone(zone.get());
        }
        notices.accept("creating " + provision.count() + " x " + plan.vmSize().name() + " in " + plan.region()
                + provision.zone().map(z -> " zone " + z).orElse("") + (plan.spot() ? " (spot)" : "")
                + switch (provision.fabric()) {
                    case NONE -> "";
                    case AVAILABILITY_SET -> " in availability set " + FabricPlacement.setName(provision.namePrefix())
                            + " (so that they share one InfiniBand fabric)";
                    case SCALE_SET -> " as the instances of scale set " + FabricPlacement.setName(
                            provision.namePrefix()) + ", one placement group (so that they share one InfiniBand "
                            + "fabric in the zone)";
                }
                + "; VMs bill until 'gantry vm down'");
        notices.accept("then reading their SSH host keys through Azure Run Command and waiting up to "
                + ReadinessWait.readable(request.waitTimeout()) + " until they answer SSH"
                + (request.skipDoctor() ? "" : " and pass doctor"));
        Duration interval = request.waitTimeout().compareTo(READY_INTERVAL) < 0 ? request.waitTimeout()
                : READY_INTERVAL;
        VmProvisioner provisioner = new VmProvisioner(azure, inventory(),
                new ReadinessWait(readiness, request.waitTimeout(), interval, Clock.systemUTC(),
                        pause -> Thread.sleep(pause.toMillis())), Clock.systemUTC());
        List<VmInventoryEntry> vms = new ArrayList<>();
        for (ProvisionedVm vm : provisioner.up(provision, progress)) {
            vms.add(vm.vm());
        }
        String pattern = provision.namePrefix() + "-*";
        notices.accept("ready" + backends.registry().find(DoctorCheck.BACKEND)
                .flatMap(BackendProvider::provisionedHostDoctor).flatMap(doctor -> doctor.settingsFor(pattern))
                .map(settings -> "; run jobs on them with " + settings).orElse(""));
        return vms;
    }

    /**
     * Deletes the named VMs with their disks, NICs and public IPs (a scale set's instances through its API), and the
     * availability set or scale set Gantry made for them once its last VM is gone.
     *
     * @param names the VMs' names, as {@link #list()} shows them
     * @throws GantryException USAGE when no name is given or one is not in the inventory; nothing is deleted then
     */
    public void down(List<String> names) {
        VmInventory inventory = inventory();
        if (names.isEmpty()) {
            throw new GantryException(ErrorCode.USAGE, "name the VMs to delete, or pass --all; 'gantry vm list' "
                    + "shows them");
        }
        for (String name : names) {
            if (inventory.find(name).isEmpty()) {
                throw new GantryException(ErrorCode.USAGE, "no VM '" + name + "' in the inventory; known: "
                        + String.join(", ", inventory.list().stream().map(VmInventoryEntry::name).toList()));
            }
        }
        new VmProvisioner(azure, inventory, ReadinessWait.sshPort(), Clock.systemUTC()).down(names);
    }

    /**
     * The VM inventory of the Gantry state directory ({@code STATE_DIR/vms/vms.json}), which the manual backend's
     * {@code provisioned} key reads as well. Earlier versions kept it in {@code ~/.gantry/vms}: such a file is moved
     * over once (VMs bill until deleted, so none may be forgotten), or, when both exist, named in a notice.
     */
    private VmInventory inventory() {
        VmInventory inventory = backends.vmInventory();
        Path legacy = home.resolve(".gantry").resolve("vms").resolve(VmInventory.FILE_NAME);
        if (legacy.equals(inventory.file()) || !Files.exists(legacy)) {
            return inventory;
        }
        if (Files.exists(inventory.file())) {
            notices.accept("warning: " + legacy + " (written by an earlier version) is not read; the inventory is "
                    + inventory.file() + ". Merge its VMs into it, or delete them in the Azure portal, then remove "
                    + legacy);
            return inventory;
        }
        try {
            Files.createDirectories(inventory.file().getParent());
            Files.move(legacy, inventory.file(), StandardCopyOption.ATOMIC_MOVE);
        } catch (IOException e) {
            throw new GantryException(ErrorCode.CONFIG_INVALID, "cannot move the VM inventory of an earlier version "
                    + "from " + legacy + " to " + inventory.file() + " (" + e.getMessage() + "); move it yourself");
        }
        notices.accept("moved the VM inventory from " + legacy + " to " + inventory.file());
        return inventory;
    }

    private static String readPublicKey(Path file) {
        try {
            return Files.readString(file, StandardCharsets.UTF_8).strip();
        } catch (IOException e) {
            throw new GantryException(ErrorCode.USAGE, "cannot read the SSH public key " + file + ": "
                    + e.getMessage());
        }
    }

    /** The private key beside a public key ({@code id_ed25519} beside {@code id_ed25519.pub}), when readable. */
    private static Optional<Path> beside(Path publicKey) {
        String name = publicKey.getFileName().toString();
        if (!name.endsWith(".pub")) {
            return Optional.empty();
        }
        Path key = publicKey.resolveSibling(name.substring(0, name.length() - ".pub".length()));
        return Files.isReadable(key) ? Optional.of(key) : Optional.empty();
    }
}
