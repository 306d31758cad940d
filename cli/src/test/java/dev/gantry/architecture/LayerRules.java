package dev.gantry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.gantry.api.backend.BackendProvider;
import java.util.List;
import java.util.Map;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * The layers of docs/architecture.md as ArchUnit rules, one per concern, each named for what it protects. From the
 * bottom: {@code api} and {@code http} (JDK only); the support modules {@code ssh}, {@code hosts}, {@code azure},
 * {@code images} and the conformance kit, on the API and independent of one another except {@code hosts} on
 * {@code ssh} (hosts are reached over SSH) and {@code azure} on {@code http} (its clients retry through it); {@code core} and the backends above those, backends never on core, images or each other; and
 * {@code cli}, {@code examples} and {@code benchmarks} on top, never on anyone's {@code internal} package.
 *
 * <p>{@link ArchitectureTest} checks every rule against the production classes; {@code LayerRulesCatchViolationsTest}
 * shows each one failing on a deliberate violation.
 */
final class LayerRules {
    private static final Pattern BACKEND = Pattern.compile("dev\\.gantry\\.backend\\.([a-z0-9]+)(\\..*)?");

    /** Each support module and the Gantry packages it may use besides its own (the API always). */
    static final Map<String, List<String>> SUPPORT_MODULES = Map.of(
            "ssh", List.of(),
            "hosts", List.of("dev.gantry.ssh."),
            "http", List.of(),
            "azure", List.of("dev.gantry.http."),
            "images", List.of(),
            "tck", List.of());

    private LayerRules() {
    }

    static ArchRule apiDependsOnTheJdkOnly() {
        return classes().that().resideInAPackage("dev.gantry.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gantry.api..", "java..")
                .because("the API is small and stable: records, enums and interfaces with no third-party types");
    }

    static ArchRule httpRetriesDependOnTheJdkOnly() {
        return classes().that().resideInAPackage("dev.gantry.http..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gantry.http..", "java..")
                .because("every remote client retries through it, the Kubernetes and Batch clients too, whatever "
                        + "HTTP library they use: it brings nothing with it, not even the API");
    }

    /** One rule per support module: the API and what {@link #SUPPORT_MODULES} names, nothing else of Gantry's. */
    static ArchRule supportModuleDependsOnTheApiOnly(String module) {
        List<String> allowed = new java.util.ArrayList<>(List.of("dev.gantry.api.", "dev.gantry." + module + "."));
        allowed.addAll(SUPPORT_MODULES.get(module));
        return noClasses().that().resideInAPackage("dev.gantry." + module + "..")
                .should().dependOnClassesThat(gantryOutside(allowed.toArray(String[]::new)))
                .because("support modules serve core and backends alike, so they must pull neither in, nor each "
                        + "other (hosts on ssh is the one documented exception: hosts are reached over SSH)");
    }

    static ArchRule backendsNeverDependOnCoreImagesOrEachOther() {
        return classes().that().resideInAPackage("dev.gantry.backend..")
                .should(useOnlyTheApiTheSupportModulesAndTheirOwnBackend())
                .because("backends are plugins: they see the SPI and the support modules' public packages, never "
                        + "core, images, another backend or an internal package of a support module");
    }

    static ArchRule coreNeverImportsABackend() {
        return noClasses().that().resideInAnyPackage("dev.gantry.core..", "dev.gantry.runs..", "dev.gantry.images..",
                        "dev.gantry.ssh..", "dev.gantry.hosts..", "dev.gantry.http..", "dev.gantry.azure..", "dev.gantry.api..",
                        "dev.gantry.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.gantry.backend..")
                .because("backends are found with ServiceLoader, never named: core and the CLI reach a backend only "
                        + "through the SPI, by its name in the configuration");
    }

    /**
     * Core decides; the modules beside it do. Core's classes never open a database, start a process, hold a file
     * lock, open a socket or speak SSH, and never reach the runs module or the facade that sits on it: what does
     * implements ports core defines.
     */
    static ArchRule coreOnlyDecides() {
        return noClasses().that().resideInAPackage("dev.gantry.core..")
                .should().dependOnClassesThat(doing())
                .because("core decides and does no I/O of its own, so its decisions are tested without I/O; the state "
                        + "database, the job service, the run engine and provisioning live in the runs module");
    }

    private static DescribedPredicate<JavaClass> doing() {
        return new DescribedPredicate<>("I/O that does rather than decides (JDBC, processes, sockets, file locks, "
                + "SSH, Azure) or the runs module and the facade") {
            @Override
            public boolean test(JavaClass target) {
                String name = target.getName();
                return name.startsWith("java.sql.") || name.startsWith("javax.sql.") || name.startsWith("org.sqlite.")
                        || name.startsWith("org.postgresql.") || name.startsWith("dev.gantry.ssh.")
                        || name.startsWith("com.jcraft.") || name.startsWith("dev.gantry.runs.")
                        || name.startsWith("dev.gantry.azure.") || name.startsWith("com.azure.")
                        || target.getPackageName().equals("dev.gantry")
                        || List.of("java.lang.ProcessBuilder", "java.lang.Process", "java.lang.ProcessHandle",
                                "java.net.Socket", "java.net.ServerSocket", "java.nio.channels.FileLock",
                                "java.nio.channels.SocketChannel", "java.nio.channels.ServerSocketChannel")
                        .contains(name);
            }
        };
    }

    /**
     * The facade's parts ({@code Runs}, {@code Vms}, the replanner) take what they need (the planner, the open
     * backends, the configuration), never the {@code Gantry} facade itself: an arrow back up would make every part
     * depend on all of it.
     */
    static ArchRule subFacadesNeverCallBackIntoTheFacade() {
        return noClasses().that().resideInAPackage("dev.gantry")
                .and(new DescribedPredicate<>("are not the facade or nested in it") {
                    @Override
                    public boolean test(JavaClass item) {
                        return !item.getName().equals("dev.gantry.Gantry")
                                && !item.getName().startsWith("dev.gantry.Gantry$");
                    }
                })
                .should().dependOnClassesThat().haveFullyQualifiedName("dev.gantry.Gantry")
                .because("sub-facades take a planner, the open backends and the configuration; the facade builds "
                        + "them and hands them down, so data and calls flow one way");
    }

    static ArchRule coreAndCliReachAzureOnlyThroughTheAzureModule() {
        return noClasses().that().resideOutsideOfPackages("dev.gantry.azure..", "dev.gantry.backend.batch.internal..")
                .and().resideInAPackage("dev.gantry..")
                .should().dependOnClassesThat().resideInAnyPackage("com.azure..", "com.microsoft.azure..")
                .because("core decides and the Azure module talks to Azure: the SDK's types stay in gantry-azure; "
                        + "the one documented exception is the Batch backend's internals, which speak Batch through "
                        + "the data-plane SDK's protocol layer (com.microsoft.azure.batch)");
    }

    static ArchRule theBatchBackendReachesOnlyTheBatchSdkItself() {
        return noClasses().that().resideInAPackage("dev.gantry.backend.batch..")
                .should().dependOnClassesThat().resideInAnyPackage("com.azure..")
                .because("the Batch backend's exception covers the Batch data-plane SDK only: every com.azure type "
                        + "(credentials, storage, Resource Manager) stays in gantry-azure behind its JDK-typed seams");
    }

    static ArchRule nothingDependsOnTheTopLayers() {
        return noClasses().that().resideOutsideOfPackages("dev.gantry.cli..", "dev.gantry.examples..",
                        "dev.gantry.benchmarks..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.cli..", "dev.gantry.examples..",
                        "dev.gantry.benchmarks..")
                .because("the CLI, the examples and the benchmarks only use the library; nothing builds on them");
    }

    static ArchRule topLayersNeverReachAnInternalPackage() {
        return noClasses().that().resideInAnyPackage("dev.gantry.cli..", "dev.gantry.examples..",
                        "dev.gantry.benchmarks..")
                .should().dependOnClassesThat().resideInAPackage("dev.gantry..internal..")
                .because("programs use Gantry the way users do, through the facade and the public SPI; an internal "
                        + "package may change any day");
    }

    /**
     * The CLI uses Gantry as a program would: the facade ({@code Gantry}, {@code Runs}, {@code Vms}), its public model
     * ({@code dev.gantry.model}: job and run records, events, plans, checks, summaries), the api and the Azure
     * module's connector. It never reads specs, loads catalogs, renders boot scripts, provisions or reads quota
     * itself, so a program gets exactly what the CLI does, and core and runs may change inside.
     */
    static ArchRule cliUsesOnlyTheFacadeAndItsPublicModel() {
        return noClasses().that().resideInAPackage("dev.gantry.cli..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.core..", "dev.gantry.runs..",
                        "dev.gantry.images..")
                .because("the CLI only parses and prints: what it shows comes from the Gantry facade and its public "
                        + "model (dev.gantry.model); core's and the runs module's packages are internal");
    }

    /**
     * The public model is what the facade hands out and the CLI prints; it stands on the api alone, so a program that
     * holds a record never reaches into core's or the runs module's internals through it.
     */
    static ArchRule thePublicModelStandsOnTheApiAlone() {
        return classes().that().resideInAPackage("dev.gantry.model..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gantry.model..", "dev.gantry.api..",
                        "java..", "com.fasterxml.jackson..")
                .because("records, events and plans are the facade's public model: a stable surface over the api, "
                        + "never a way into core or runs");
    }

    static ArchRule noPackageCycles() {
        // A module's public package and its internal packages are one unit (public types hand their work to the
        // internals, which take those types back as arguments); cycles between units are what this rule forbids.
        return slices().assignedFrom(new SliceAssignment() {
            @Override
            public SliceIdentifier getIdentifierOf(JavaClass javaClass) {
                String name = javaClass.getPackageName();
                if (!name.startsWith("dev.gantry.")) {
                    return SliceIdentifier.ignore();
                }
                int internal = name.indexOf(".internal");
                return SliceIdentifier.of(internal < 0 ? name : name.substring(0, internal));
            }

            @Override
            public String getDescription() {
                return "Gantry packages, each with its internal packages";
            }
        }).should().beFreeOfCycles();
    }

    static ArchRule onlyCoreWiringTouchesDagger() {
        return noClasses().that().resideOutsideOfPackage("dev.gantry.core.wiring..")
                .should().dependOnClassesThat().resideInAnyPackage("dagger..", "javax.inject..", "jakarta.inject..")
                .because("Dagger wires core's services in one place; the classes themselves stay plain");
    }

    static ArchRule backendProvidersArePublicWithAPublicNoArgumentConstructor() {
        return classes().that().implement(BackendProvider.class)
                .should().bePublic()
                .andShould(havePublicNoArgConstructor())
                .because("ServiceLoader instantiates providers reflectively");
    }

    static ArchRule backendModulesExposeOnlyTheirProvider() {
        return classes().that().resideInAPackage("dev.gantry.backend..").and().arePublic()
                .and().resideOutsideOfPackage("dev.gantry.backend..internal..")
                .should().implement(BackendProvider.class)
                .because("a backend's one public type is its provider; the rest is internal");
    }

    /** A backend class may use the API, the public packages of ssh, hosts, http and azure, and its own backend's code. */
    private static ArchCondition<JavaClass> useOnlyTheApiTheSupportModulesAndTheirOwnBackend() {
        return new ArchCondition<>("use no Gantry classes but the API's, the support modules' public ones and their "
                + "own backend's") {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                Matcher own = BACKEND.matcher(item.getPackageName());
                String backend = own.matches() ? own.group(1) : "";
                item.getDirectDependenciesFromSelf().forEach(dependency -> {
                    String target = dependency.getTargetClass().getName();
                    if (!target.startsWith("dev.gantry.") || allowedForBackend(target, backend)) {
                        return;
                    }
                    events.add(SimpleConditionEvent.violated(dependency, dependency.getDescription()));
                });
            }
        };
    }

    private static boolean allowedForBackend(String target, String backend) {
        if (target.startsWith("dev.gantry.api.") || target.startsWith("dev.gantry.backend." + backend + ".")) {
            return true;
        }
        for (String support : List.of("ssh", "hosts", "http", "azure")) {
            if (target.startsWith("dev.gantry." + support + ".") && !target.contains(".internal.")) {
                return true;
            }
        }
        return false;
    }

    static DescribedPredicate<JavaClass> gantryOutside(String... allowedPrefixes) {
        return new DescribedPredicate<>("Gantry classes outside " + String.join(", ", allowedPrefixes)) {
            @Override
            public boolean test(JavaClass target) {
                String name = target.getName();
                if (!name.startsWith("dev.gantry.")) {
                    return false;
                }
                for (String prefix : allowedPrefixes) {
                    if (name.startsWith(prefix)) {
                        return false;
                    }
                }
                return true;
            }
        };
    }

    private static ArchCondition<JavaClass> havePublicNoArgConstructor() {
        return new ArchCondition<>("have a public no-argument constructor") {
            @Override
            public void check(JavaClass item, ConditionEvents events) {
                boolean ok = item.getConstructors().stream()
                        .anyMatch(c -> c.getRawParameterTypes().isEmpty() && c.getModifiers().contains(JavaModifier.PUBLIC));
                events.add(new SimpleConditionEvent(item, ok, item.getName()
                        + (ok ? " has" : " lacks") + " a public no-argument constructor"));
            }
        };
    }
}
