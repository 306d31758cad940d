package dev.gantry.images;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;

/**
 * Generates the cloud-init {@code #cloud-config} a node boots with: it installs what the plan needs and the image
 * lacks (container runtime, NVIDIA Container Toolkit and its runtime configuration, Enroot and Pyxis on Slurm nodes,
 * monitoring agents), runs the user's boot commands, then checks the prerequisites and writes the readiness marker
 * that Gantry's host probes read.
 *
 * <p>Safety: Gantry's scripts are fixed files (written with {@code write_files}); every value from the plan or the
 * options reaches them only as an element of a {@code runcmd} argv list, written as a YAML double-quoted scalar.
 * cloud-init quotes each element for the shell, so values arrive verbatim and no shell text is ever built from them.
 * The script contains no secrets: it takes none, and it never writes the workload's environment or secret
 * references.
 */
public final class BootScript {
    /** Where Gantry's boot programs are installed on the node. */
    public static final String LIB_DIR = "/usr/local/lib/gantry";
    static final int INSTALL_TIMEOUT_SECONDS = 1800;
    static final int PULL_TIMEOUT_SECONDS = 3600;
    static final int USER_COMMAND_TIMEOUT_SECONDS = 3600;
    private static final String STEP = LIB_DIR + "/gantry-step";
    private static final String CHECK = LIB_DIR + "/gantry-boot-check";

    private final ImageCatalog catalog;

    /** @param catalog tells what the plan's image contains (a user image with unknown contents gets everything) */
    public BootScript(ImageCatalog catalog) {
        this.catalog = Objects.requireNonNull(catalog, "catalog");
    }

    private record Step(String name, int timeoutSeconds, List<String> argv) {
    }

    /**
     * The cloud-config for one node of the plan.
     *
     * @throws GantryException {@link ErrorCode#CONFIG_INVALID} when the options do not fit the plan (e.g. the DCGM
     *     exporter on a size without NVIDIA GPUs), with every problem
     */
    public String cloudConfig(Plan plan, BootOptions options) {
        Objects.requireNonNull(plan, "plan");
        Objects.requireNonNull(options, "options");
        validate(plan, options);
        Optional<VmImage> image = catalog.find(plan.image().id());
        GpuVendor vendor = plan.vmSize().gpu().map(gpu -> gpu.vendor()).orElse(null);
        boolean nvidia = vendor == GpuVendor.NVIDIA;
        String runtime = options.containerRuntime().name().toLowerCase(Locale.ROOT);
        boolean slurm = options.role() == BootOptions.Role.SLURM_NODE;

        Set<String> files = new LinkedHashSet<>(List.of("gantry-step", "gantry-boot-check"));
        List<Step> steps = new ArrayList<>();
        if (options.containerRuntime() == BootOptions.ContainerRuntime.PODMAN
                || (options.containerRuntime() == BootOptions.ContainerRuntime.DOCKER
                && !image.map(i -> i.has(ImageComponent.DOCKER)).orElse(false))) {
            files.add("install-container-runtime");
            steps.add(new Step("container-runtime", INSTALL_TIMEOUT_SECONDS,
                    List.of(LIB_DIR + "/install-container-runtime", runtime)));
        }
        if (nvidia && (options.containerRuntime() != BootOptions.ContainerRuntime.NONE || slurm)) {
            // Configuring the runtime is idempotent; it runs even when the image ships the toolkit, because images
            // differ in whether the engine is already wired to it.
            files.add("configure-nvidia-runtime");
            steps.add(new Step("nvidia-container-runtime", INSTALL_TIMEOUT_SECONDS,
                    List.of(LIB_DIR + "/configure-nvidia-runtime", runtime)));
        }
        if (slurm) {
            files.add("install-enroot-pyxis");
            steps.add(new Step("enroot-pyxis", INSTALL_TIMEOUT_SECONDS, List.of(LIB_DIR + "/install-enroot-pyxis")));
        }
        if (options.monitoring().contains(BootOptions.MonitoringAgent.NODE_EXPORTER)) {
            files.add("install-node-exporter");
            steps.add(new Step("node-exporter", INSTALL_TIMEOUT_SECONDS, List.of(LIB_DIR + "/install-node-exporter")));
        }
        if (options.monitoring().contains(BootOptions.MonitoringAgent.DCGM_EXPORTER)) {
            files.add("run-dcgm-exporter");
            steps.add(new Step("dcgm-exporter", PULL_TIMEOUT_SECONDS,
                    List.of(LIB_DIR + "/run-dcgm-exporter", runtime, options.dcgmExporterImage())));
        }
        Optional<String> pull = options.containerImage()
                .or(() -> plan.workload().container().map(spec -> spec.image()));
        if (pull.isPresent() && options.containerRuntime() != BootOptions.ContainerRuntime.NONE) {
            steps.add(new Step("pull-image", PULL_TIMEOUT_SECONDS, List.of(runtime, "pull", pull.get())));
        }
        for (int i = 0; i < options.userCommands().size(); i++) {
            List<String> argv = new ArrayList<>();
            if (!options.environment().isEmpty()) {
                argv.add("env");
                options.environment().forEach((name, value) -> argv.add(name + "=" + value));
            }
            argv.addAll(options.userCommands().get(i));
            steps.add(new Step("user-command-" + (i + 1), USER_COMMAND_TIMEOUT_SECONDS, argv));
        }

        List<String> facts = List.of("--marker", options.markerPath(), "--workload", plan.workload().name(),
                "--vm-size", plan.vmSize().name(), "--image", plan.image().id());
        StringBuilder out = new StringBuilder();
        out.append("#cloud-config\n");
        out.append("# Generated by Gantry. Every runcmd entry is an argv list: cloud-init quotes each element for\n");
        out.append("# the shell, so values arrive verbatim. Step logs: /var/log/gantry/boot/. Result: the marker.\n");
        out.append("write_files:\n");
        for (String file : files) {
            out.append("  - path: ").append(YamlText.quoted(LIB_DIR + "/" + file)).append('\n');
            out.append("    owner: \"root:root\"\n");
            out.append("    permissions: \"0755\"\n");
            out.append("    content: |\n");
            for (String line : resource(file).split("\n", -1)) {
                if (!line.isEmpty()) {
                    out.append("      ").append(line);
                }
                out.append('\n');
            }
            // The split leaves one empty element after the file's final newline; drop the extra line it adds.
            out.setLength(out.length() - 1);
        }
        out.append("runcmd:\n");
        List<String> booting = new ArrayList<>(List.of(CHECK, "--status", "booting"));
        booting.addAll(facts);
        appendArgv(out, booting);
        for (Step step : steps) {
            List<String> argv = new ArrayList<>(List.of(STEP, step.name(), Integer.toString(step.timeoutSeconds())));
            argv.addAll(step.argv());
            appendArgv(out, argv);
        }
        List<String> check = new ArrayList<>(List.of(CHECK, "--status", "check"));
        check.addAll(facts);
        check.addAll(List.of("--gpus", Integer.toString(plan.gpusPerNode()),
                "--gpu-vendor", vendor == null ? "none" : vendor.name().toLowerCase(Locale.ROOT),
                "--rdma", Boolean.toString(plan.vmSize().rdma()),
                "--runtime", runtime,
                "--role", slurm ? "slurm" : "plain"));
        appendArgv(out, check);
        return out.toString();
    }

    private static void validate(Plan plan, BootOptions options) {
        List<Problem> problems = new ArrayList<>();
        boolean nvidia = plan.vmSize().gpu().map(gpu -> gpu.vendor() == GpuVendor.NVIDIA).orElse(false);
        if (options.monitoring().contains(BootOptions.MonitoringAgent.DCGM_EXPORTER)) {
            if (!nvidia) {
                problems.add(Problem.of("boot.monitoring", "dcgm_exporter needs NVIDIA GPUs but "
                        + plan.vmSize().name() + " has " + plan.vmSize().gpu()
                        .map(gpu -> gpu.count() + " " + gpu.vendor() + " GPUs").orElse("none")
                        + "; remove it (node_exporter works on every size)"));
            }
            if (options.containerRuntime() == BootOptions.ContainerRuntime.NONE) {
                problems.add(Problem.of("boot.monitoring", "dcgm_exporter runs as a container but the container "
                        + "runtime is none; set the runtime to docker or podman"));
            }
        }
        Map<String, ?> secrets = plan.workload().secrets();
        options.environment().keySet().stream().filter(secrets::containsKey).sorted().forEach(name ->
                problems.add(Problem.of("boot.environment." + name, "'" + name + "' is one of the workload's "
                        + "secrets; boot scripts never carry secret values. Have the boot command fetch it at run "
                        + "time (managed identity + Key Vault) instead")));
        if (!problems.isEmpty()) {
            throw GantryException.invalid(ErrorCode.CONFIG_INVALID, problems);
        }
    }

    private static void appendArgv(StringBuilder out, List<String> argv) {
        out.append("  - [");
        for (int i = 0; i < argv.size(); i++) {
            out.append(i == 0 ? "" : ", ").append(YamlText.quoted(argv.get(i)));
        }
        out.append("]\n");
    }

    /** The text of one of Gantry's boot programs, as written to the node. */
    static String resource(String file) {
        try (InputStream in = BootScript.class.getResourceAsStream("boot/" + file)) {
            if (in == null) {
                throw new GantryException(ErrorCode.INTERNAL, "boot program '" + file + "' is missing from the "
                        + "gantry-images jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
