package dev.gantry.hosts;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.hosts.probe.ContainerEngine;
import dev.gantry.hosts.probe.Gpu;
import dev.gantry.hosts.probe.HostFacts;
import dev.gantry.hosts.probe.IbPort;
import dev.gantry.hosts.probe.PlanFit;
import dev.gantry.hosts.probe.ProbeFinding;
import dev.gantry.hosts.probe.ProbeReport;
import dev.gantry.hosts.probe.ProbeScript;
import dev.gantry.hosts.probe.SettingNames;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Probes a host with the one probe script (one call per host) and turns what it found into the SPI's report: the
 * facts, and the findings against a plan (or the host's own hardware without one).
 */
public final class HostDoctor {
    private static final Duration PROBE_TIMEOUT = Duration.ofSeconds(ProbeScript.TIMEOUT_SECONDS * 3L);

    private HostDoctor() {
    }

    public static HostReport examine(Host host, String workDir, Optional<Plan> plan, String containerRuntime,
                                     SettingNames names) {
        return report(host.name(), host.run(ProbeScript.argv(workDir), PROBE_TIMEOUT), workDir, plan,
                containerRuntime, names);
    }

    /**
     * The report of a probe that ran elsewhere: on a cluster's compute node through its scheduler, whose login node
     * relays the probe's output.
     *
     * @param name the host's name in the report
     * @param output what {@link ProbeScript#TEXT} printed there
     * @param names the backend's names of the settings the advice points at
     */
    public static HostReport report(String name, String output, String workDir, Optional<Plan> plan,
                                    String containerRuntime, SettingNames names) {
        HostFacts facts = ProbeReport.parse(output, workDir);
        List<ProbeFinding> findings = plan.map(p -> PlanFit.evaluate(facts, p, containerRuntime, names))
                .orElseGet(() -> PlanFit.survey(facts, containerRuntime, names));
        List<HostCheck> checks = new ArrayList<>();
        for (ProbeFinding finding : findings) {
            checks.add(new HostCheck(finding.check().checkName(), HostCheck.Status.valueOf(finding.status().name()),
                    finding.found(), finding.needed(), finding.fix()));
        }
        return new HostReport(name, facts(facts), checks);
    }

    public static Map<String, String> facts(HostFacts facts) {
        Map<String, String> m = new LinkedHashMap<>();
        facts.os().ifPresent(os -> m.put("os", os.prettyName()));
        facts.kernel().ifPresent(k -> m.put("kernel", k));
        facts.architecture().ifPresent(a -> m.put("architecture", a));
        facts.cpus().ifPresent(n -> m.put("cpus", Integer.toString(n)));
        facts.memoryGib().ifPresent(g -> m.put("memoryGib", String.format(Locale.ROOT, "%.1f", g)));
        facts.disk().ifPresent(d -> m.put("diskFreeGib", String.format(Locale.ROOT, "%.1f (%s)", d.freeGib(),
                d.mountPoint())));
        if (!facts.gpus().isEmpty()) {
            Map<String, Integer> counts = new LinkedHashMap<>();
            for (Gpu gpu : facts.gpus()) {
                String memory = gpu.memoryGib().isPresent()
                        ? String.format(Locale.ROOT, " %.0f GiB", gpu.memoryGib().getAsDouble()) : "";
                counts.merge(gpu.name() + memory, 1, Integer::sum);
            }
            List<String> parts = new ArrayList<>();
            counts.forEach((name, n) -> parts.add(n + " x " + name));
            m.put("gpus", String.join(", ", parts));
            facts.gpus().get(0).driver().ifPresent(d -> m.put("driver", d));
        } else {
            m.put("gpus", "none");
        }
        facts.cudaVersion().ifPresent(v -> m.put("cuda", v));
        facts.nvidiaCtkVersion().ifPresent(v -> m.put("nvidiaContainerToolkit", v));
        m.put("docker", engine(facts.docker()));
        m.put("podman", engine(facts.podman()));
        List<String> ports = new ArrayList<>();
        for (IbPort port : facts.infinibandPorts()) {
            ports.add(port.device() + "/" + port.port() + " " + port.state() + " " + port.linkLayer());
        }
        m.put("infiniband", ports.isEmpty() ? "none" : String.join(", ", ports));
        m.put("bootMarker", facts.bootMarker().state().name().toLowerCase(Locale.ROOT));
        return m;
    }

    private static String engine(ContainerEngine engine) {
        String state = engine.state().name().toLowerCase(Locale.ROOT).replace('_', ' ');
        return engine.version().map(v -> v + ", runtimes: " + String.join(" ", engine.runtimes())).orElse(state);
    }
}
