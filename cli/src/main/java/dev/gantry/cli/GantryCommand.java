package dev.gantry.cli;

import dev.gantry.Gantry;
import java.nio.file.Path;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.Spec;
import picocli.CommandLine.Model.CommandSpec;

/** The root of the command tree: global options and the lazily built {@link Gantry}. */
@Command(name = "gantry",
        mixinStandardHelpOptions = false,
        versionProvider = VersionCommand.Line.class,
        description = {"Run AI workloads on Azure IaaS: Gantry chooses the VM size, region, capacity, image and "
                + "orchestrator by Azure's guidance and runs the workload on the configured backend."},
        footer = {"", "Exit codes: 0 success, 2 usage or validation error, 1 runtime failure.",
                "Configuration: --config FILE, else ./gantry.yaml, else ~/.gantry/config.yaml; GANTRY_* variables "
                        + "override files."})
final class GantryCommand implements Runnable {
    @Spec
    CommandSpec spec;

    @Option(names = "--config", paramLabel = "FILE", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Configuration file (default: ./gantry.yaml, then ~/.gantry/config.yaml).")
    Path config;

    @Option(names = "--backend", paramLabel = "NAME", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Backend to use instead of the configured one.")
    String backend;

    @Option(names = "--debug", scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Show stack traces of errors.")
    boolean debug;

    @Option(names = {"-q", "--quiet"}, scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Show no progress on standard error (live views, progress lines, run events); warnings "
                    + "and errors still print.")
    boolean quiet;

    @Option(names = {"-h", "--help"}, usageHelp = true, scope = picocli.CommandLine.ScopeType.INHERIT,
            description = "Show help for the command.")
    boolean help;

    @Option(names = {"-V", "--version"}, versionHelp = true, description = "Print Gantry's version and exit.")
    boolean version;

    /** A catalog file given to one verb (plan --catalog), used instead of the configured catalog. */
    Path catalogFile;

    private final CliEnvironment environment;
    private Gantry gantry;

    GantryCommand(CliEnvironment environment) {
        this.environment = environment;
    }

    CliEnvironment env() {
        return environment;
    }

    /** The Gantry instance for this invocation, built on first use so that cheap verbs stay cheap. */
    Gantry gantry() {
        if (gantry == null) {
            Gantry.Builder builder = Gantry.builder()
                    .environment(environment.environment())
                    .workingDirectory(environment.workingDirectory())
                    .home(environment.home());
            if (config != null) {
                builder.configFile(environment.workingDirectory().resolve(config));
            }
            if (backend != null) {
                builder.override("backend", backend);
            }
            if (catalogFile != null) {
                builder.catalogFile(catalogFile);
            }
            gantry = builder.build();
        }
        return gantry;
    }

    void closeGantry() {
        if (gantry != null) {
            gantry.close();
            gantry = null;
        }
    }

    @Override
    public void run() {
        spec.commandLine().usage(environment.out());
    }
}
