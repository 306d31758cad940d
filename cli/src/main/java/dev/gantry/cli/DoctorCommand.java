package dev.gantry.cli;

import com.fasterxml.jackson.databind.node.ArrayNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.HostCheck;
import dev.gantry.api.backend.HostReport;
import dev.gantry.Gantry;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

@Command(name = "doctor", description = {"Probe the configured backend's hosts: OS, CPUs, memory, disk, GPUs and "
        + "drivers, container runtime, InfiniBand.", "With a SPEC, check that the hosts can run its plan; exits 1 "
        + "when something is missing, and says how to fix it."})
final class DoctorCommand extends Verb {
    @Parameters(index = "0", arity = "0..1", paramLabel = "SPEC", description = "A workload spec to check the hosts against.")
    Path spec;

    @Option(names = "--host", paramLabel = "HOST", description = "Only this host.")
    String host;

    @Override
    public Integer call() {
        Gantry gantry = root.gantry();
        Optional<Plan> plan = Optional.empty();
        if (spec != null) {
            Path file = spec.isAbsolute() ? spec : env().workingDirectory().resolve(spec);
            plan = Optional.of(gantry.plan(gantry.load(file)));
        }
        List<HostReport> reports = gantry.doctor(plan);
        if (host != null) {
            List<String> names = reports.stream().map(HostReport::host).toList();
            reports = reports.stream().filter(r -> r.host().equals(host)).toList();
            if (reports.isEmpty()) {
                throw new GantryException(ErrorCode.USAGE, "no host '" + host + "' in backend '"
                        + gantry.backendName() + "'; its hosts: " + String.join(", ", names));
            }
        }
        if (output.json()) {
            ArrayNode array = Json.array();
            for (HostReport report : reports) {
                ObjectNode node = array.addObject();
                node.put("host", report.host());
                node.put("ok", report.ok());
                ObjectNode facts = node.putObject("facts");
                report.facts().forEach(facts::put);
                ArrayNode checks = node.putArray("checks");
                for (HostCheck check : report.checks()) {
                    ObjectNode c = checks.addObject();
                    c.put("check", check.name());
                    c.put("status", check.status().name());
                    c.put("found", check.found());
                    c.put("needed", check.needed());
                    if (check.fix().isEmpty()) {
                        c.putNull("fix");
                    } else {
                        c.put("fix", check.fix());
                    }
                }
            }
            Json.print(env().out(), array);
        } else {
            for (HostReport report : reports) {
                env().out().println("host " + report.host() + ": " + (report.ok() ? "ready" : "not ready"));
                Table facts = new Table("FACT", "VALUE");
                report.facts().forEach(facts::row);
                facts.print(env().out());
                env().out().println();
                Table checks = new Table("CHECK", "STATUS", "FOUND", "NEEDED", "FIX");
                for (HostCheck check : report.checks()) {
                    checks.row(check.name(), check.status(), check.found(), check.needed(),
                            check.fix().isEmpty() ? "-" : check.fix());
                }
                checks.print(env().out());
            }
        }
        return reports.stream().allMatch(HostReport::ok) ? Main.OK : Main.RUNTIME_FAILURE;
    }
}
