package dev.gantry.hosts.probe;

import dev.gantry.hosts.json.internal.Json;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.OptionalDouble;
import java.util.OptionalInt;

/**
 * Renders a host's facts and findings as one JSON object: {@code {"host": ..., "ok": ..., "facts": {...},
 * "findings": [...]}}. Unknown facts are {@code null}; sizes are GiB rounded to two decimals. Member names are stable
 * (scripts read them).
 */
public final class DoctorJson {
    private DoctorJson() {
    }

    public static String render(String host, HostFacts facts, List<ProbeFinding> findings) {
        Objects.requireNonNull(host, "host");
        Map<String, Object> root = new LinkedHashMap<>();
        root.put("host", host);
        root.put("ok", findings.stream().noneMatch(f -> f.status() == FindingStatus.MISSING));
        root.put("facts", facts(facts));
        List<Object> list = new ArrayList<>();
        for (ProbeFinding f : findings) {
            Map<String, Object> m = new LinkedHashMap<>();
            m.put("check", f.check().checkName());
            m.put("status", f.status().name());
            m.put("found", f.found());
            m.put("needed", f.needed());
            m.put("fix", f.fix().isEmpty() ? null : f.fix());
            list.add(m);
        }
        root.put("findings", list);
        return Json.write(root, Json.Layout.ONE_PER_LINE);
    }

    static Map<String, Object> facts(HostFacts facts) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("os", facts.os().map(o -> {
            Map<String, Object> os = new LinkedHashMap<>();
            os.put("id", o.id());
            os.put("name", o.name());
            os.put("version", o.version());
            os.put("prettyName", o.prettyName());
            return (Object) os;
        }).orElse(null));
        m.put("kernel", facts.kernel().orElse(null));
        m.put("architecture", facts.architecture().orElse(null));
        m.put("cpus", value(facts.cpus()));
        m.put("memoryGib", value(facts.memoryGib()));
        m.put("disk", facts.disk().map(d -> {
            Map<String, Object> disk = new LinkedHashMap<>();
            disk.put("path", d.path());
            disk.put("mountPoint", d.mountPoint());
            disk.put("freeGib", gib(d.freeGib()));
            return (Object) disk;
        }).orElse(null));
        m.put("gpuVendor", facts.gpuVendor().map(v -> v.name().toLowerCase(Locale.ROOT)).orElse(null));
        List<Object> gpus = new ArrayList<>();
        for (Gpu g : facts.gpus()) {
            Map<String, Object> gpu = new LinkedHashMap<>();
            gpu.put("vendor", g.vendor().name().toLowerCase(Locale.ROOT));
            gpu.put("name", g.name());
            gpu.put("memoryGib", value(g.memoryGib()));
            gpu.put("driver", g.driver().orElse(null));
            gpus.add(gpu);
        }
        m.put("gpus", gpus);
        m.put("cudaVersion", facts.cudaVersion().orElse(null));
        m.put("nvidiaContainerToolkit", facts.nvidiaCtkVersion().orElse(null));
        m.put("cdiSpecs", new ArrayList<Object>(facts.cdiSpecs()));
        m.put("docker", engine(facts.docker()));
        m.put("podman", engine(facts.podman()));
        List<Object> ports = new ArrayList<>();
        for (IbPort p : facts.infinibandPorts()) {
            Map<String, Object> port = new LinkedHashMap<>();
            port.put("device", p.device());
            port.put("port", p.port());
            port.put("state", p.state());
            port.put("linkLayer", p.linkLayer());
            port.put("rate", p.rate().orElse(null));
            ports.add(port);
        }
        m.put("infinibandPorts", ports);
        Map<String, Object> marker = new LinkedHashMap<>();
        marker.put("state", facts.bootMarker().state().name().toLowerCase(Locale.ROOT));
        marker.put("time", facts.bootMarker().time().orElse(null));
        marker.put("failed", new ArrayList<Object>(facts.bootMarker().failed()));
        m.put("bootMarker", marker);
        Map<String, Object> tools = new LinkedHashMap<>();
        facts.tools().forEach((name, run) -> tools.put(name, run.ok() ? "ok" : run.detail()));
        m.put("tools", tools);
        List<Object> problems = new ArrayList<>();
        facts.problems().forEach(p -> problems.add(p.toString()));
        m.put("problems", problems);
        return m;
    }

    private static Map<String, Object> engine(ContainerEngine engine) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("state", engine.state().name().toLowerCase(Locale.ROOT));
        m.put("version", engine.version().orElse(null));
        m.put("runtimes", new ArrayList<Object>(engine.runtimes()));
        m.put("defaultRuntime", engine.defaultRuntime().orElse(null));
        m.put("nvidiaRuntime", engine.listsNvidiaRuntime());
        m.put("detail", engine.detail().isEmpty() ? null : engine.detail());
        return m;
    }

    private static Object value(OptionalInt v) {
        return v.isPresent() ? (Object) v.getAsInt() : null;
    }

    private static Object value(OptionalDouble v) {
        return v.isPresent() ? gib(v.getAsDouble()) : null;
    }

    /** A size in GiB rounded to two decimals, without trailing zeros ({@code 80}, {@code 79.18}); null when unknown. */
    private static BigDecimal gib(double value) {
        return Double.isFinite(value)
                ? BigDecimal.valueOf(value).setScale(2, RoundingMode.HALF_UP).stripTrailingZeros() : null;
    }
}
