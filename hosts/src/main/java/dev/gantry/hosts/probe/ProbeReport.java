package dev.gantry.hosts.probe;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Turns the probe script's output into {@link HostFacts}. Pure: the transport runs {@link ProbeScript} and hands the
 * text here. Nothing in the text makes this throw; whatever cannot be understood becomes a {@link ProbeProblem}.
 */
public final class ProbeReport {
    private ProbeReport() {
    }

    /**
     * @param output what the probe script printed
     * @param workDir the work directory the script was given (recorded with the free space)
     */
    public static HostFacts parse(String output, String workDir) {
        ProbeOutput sections = ProbeOutput.parse(output);
        List<ProbeProblem> problems = new ArrayList<>(sections.problems());
        Map<String, ToolRun> tools = new LinkedHashMap<>();
        for (String name : ProbeScript.SECTIONS) {
            tools.put(name, sections.section(name).map(ToolRun::of).orElse(ToolRun.notProbed()));
            if (sections.section(name).isEmpty()) {
                problems.add(new ProbeProblem(name, "section missing from the probe output"));
            }
        }

        Optional<OsRelease> os = ok(sections, "os").map(s -> take(LinuxFacts.osRelease(s.body()), problems))
                .flatMap(o -> o);
        Optional<LinuxFacts.Uname> uname = ok(sections, "kernel")
                .flatMap(s -> take(LinuxFacts.uname(s.body()), problems));
        OptionalInt cpus = ok(sections, "cpus").map(s -> take(LinuxFacts.cpus(s.body()), problems))
                .orElse(OptionalInt.empty());
        OptionalDouble memory = ok(sections, "meminfo").map(s -> take(LinuxFacts.memoryGib(s.body()), problems))
                .orElse(OptionalDouble.empty());
        Optional<DiskSpace> disk = ok(sections, "disk")
                .flatMap(s -> take(LinuxFacts.disk(s.body(), workDir), problems));

        List<Gpu> gpus = new ArrayList<>();
        ok(sections, "nvidia-smi").ifPresent(s -> gpus.addAll(take(NvidiaSmi.gpus(s.body()), problems)));
        Optional<String> cuda = ok(sections, "nvidia-smi-header").flatMap(s -> NvidiaSmi.cudaVersion(s.body()));
        ok(sections, "rocm-smi").ifPresent(s -> gpus.addAll(take(RocmSmi.gpus(s.body()), problems)));
        Optional<String> ctk = ok(sections, "nvidia-ctk").flatMap(s -> take(NvidiaCtk.version(s.body()), problems));
        List<String> cdi = ok(sections, "cdi-specs").map(s -> NvidiaCtk.cdiSpecs(s.body())).orElse(List.of());

        ContainerEngine docker = sections.section("docker-info").map(DockerInfo::parse)
                .orElse(ContainerEngine.notRunning("docker", ContainerEngine.State.UNKNOWN, "not probed"));
        ContainerEngine podman = sections.section("podman-info").map(s -> take(PodmanInfo.parse(s), problems))
                .orElse(ContainerEngine.notRunning("podman", ContainerEngine.State.UNKNOWN, "not probed"));
        List<IbPort> ports = ok(sections, "ibv_devinfo").map(s -> take(IbvDevinfo.ports(s.body()), problems))
                .orElse(List.of());
        BootMarker marker = sections.section("ready-marker").map(s -> take(BootMarkerParser.parse(s), problems))
                .orElse(BootMarker.of(BootMarker.State.UNREADABLE));

        return new HostFacts(os, uname.map(LinuxFacts.Uname::release), uname.map(LinuxFacts.Uname::machine), cpus,
                memory, disk, gpus, cuda, ctk, cdi, docker, podman, ports, marker, tools, problems);
    }

    private static Optional<ProbeSection> ok(ProbeOutput sections, String name) {
        return sections.section(name).filter(ProbeSection::succeeded);
    }

    private static <T> T take(Parsed<T> parsed, List<ProbeProblem> problems) {
        problems.addAll(parsed.problems());
        return parsed.value();
    }
}
