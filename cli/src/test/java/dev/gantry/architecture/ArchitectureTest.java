package dev.gantry.architecture;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.library.dependencies.SlicesRuleDefinition.slices;
import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import com.tngtech.archunit.library.dependencies.SliceAssignment;
import com.tngtech.archunit.library.dependencies.SliceIdentifier;
import dev.gantry.api.backend.BackendProvider;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The layering rules, one per concern, over the production classes of every module (the CLI's class path holds them
 * all). Each rule's name says what it protects.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchitectureTest {
    private JavaClasses gantry;

    @BeforeAll
    void importClasses() {
        gantry = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // Modules' published test fixtures (the ARM fake, the SSH test hosts) arrive as *-tests.jar: tests too.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.gantry");
        assertFalse(gantry.stream().noneMatch(c -> c.getPackageName().startsWith("dev.gantry.backend.manual")),
                "the backends must be on the class path for these rules to mean anything");
    }

    @Test
    void apiDependsOnTheJdkOnly() {
        classes().that().resideInAPackage("dev.gantry.api..")
                .should().onlyDependOnClassesThat().resideInAnyPackage("dev.gantry.api..", "java..")
                .because("the API is small and stable: records, enums and interfaces with no third-party types")
                .check(gantry);
    }

    @Test
    void backendsDependOnTheApiOnlyNeverOnCoreImagesOrEachOther() {
        for (String backend : new String[] {"manual", "aks", "batch", "cyclecloud"}) {
            noClasses().that().resideInAPackage("dev.gantry.backend." + backend + "..")
                    .should().dependOnClassesThat(gantryOutside("dev.gantry.api.", "dev.gantry.ssh.",
                            "dev.gantry.hosts.", "dev.gantry.backend." + backend + "."))
                    .because("backends are plugins: they see the SPI (and the shared SSH and hosts libraries), never "
                            + "core, images or another backend")
                    .check(gantry);
        }
    }

    @Test
    void backendsUseOnlyThePublicPackagesOfTheSupportModules() {
        noClasses().that().resideInAPackage("dev.gantry.backend..")
                .should().dependOnClassesThat().resideInAnyPackage("dev.gantry.ssh..internal..",
                        "dev.gantry.hosts..internal..")
                .because("a support module's internal packages may change with it; backends build on its public API")
                .check(gantry);
    }

    @Test
    void hostsLibraryDependsOnTheApiAndSshOnly() {
        noClasses().that().resideInAPackage("dev.gantry.hosts..")
                .should().dependOnClassesThat(gantryOutside("dev.gantry.api.", "dev.gantry.ssh.", "dev.gantry.hosts."))
                .because("the hosts library is shared by backends (manual, the compute nodes of Slurm), so it must "
                        + "not pull core, images or a backend into them")
                .check(gantry);
    }

    @Test
    void coreNeverImportsABackend() {
        noClasses().that().resideInAnyPackage("dev.gantry.core..", "dev.gantry.images..", "dev.gantry.cli..")
                .should().dependOnClassesThat().resideInAPackage("dev.gantry.backend..")
                .because("backends are found with ServiceLoader, never named")
                .check(gantry);
    }

    @Test
    void imagesDependOnTheApiOnly() {
        noClasses().that().resideInAPackage("dev.gantry.images..")
                .should().dependOnClassesThat(gantryOutside("dev.gantry.api.", "dev.gantry.images."))
                .check(gantry);
    }

    @Test
    void sshLibraryDependsOnTheApiOnly() {
        noClasses().that().resideInAPackage("dev.gantry.ssh..")
                .should().dependOnClassesThat(gantryOutside("dev.gantry.api.", "dev.gantry.ssh."))
                .because("the SSH library is shared by backends, so it must not pull core into them")
                .check(gantry);
    }

    @Test
    void conformanceKitDependsOnTheApiOnly() {
        noClasses().that().resideInAPackage("dev.gantry.tck..")
                .should().dependOnClassesThat(gantryOutside("dev.gantry.api.", "dev.gantry.tck."))
                .because("third-party backends run the kit with nothing of Gantry's internals")
                .check(gantry);
    }

    @Test
    void noPackageCycles() {
        // A module's public package and its internal packages are one unit (public types hand their work to the
        // internals, which take those types back as arguments); cycles between units are what this rule forbids.
        slices().assignedFrom(new SliceAssignment() {
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
        }).should().beFreeOfCycles().check(gantry);
    }

    @Test
    void onlyCoreWiringTouchesDagger() {
        noClasses().that().resideOutsideOfPackage("dev.gantry.core.wiring..")
                .should().dependOnClassesThat().resideInAnyPackage("dagger..", "javax.inject..", "jakarta.inject..")
                .because("Dagger wires core's services in one place; the classes themselves stay plain")
                .check(gantry);
    }

    @Test
    void backendProvidersArePublicWithAPublicNoArgumentConstructor() {
        classes().that().implement(BackendProvider.class)
                .should().bePublic()
                .andShould(havePublicNoArgConstructor())
                .because("ServiceLoader instantiates providers reflectively")
                .check(gantry);
    }

    @Test
    void backendModulesExposeOnlyTheirProvider() {
        classes().that().resideInAPackage("dev.gantry.backend..").and().arePublic()
                .and().resideOutsideOfPackage("dev.gantry.backend..internal..")
                .should().implement(BackendProvider.class)
                .because("a backend's one public type is its provider; the rest is internal")
                .check(gantry);
    }

    private static DescribedPredicate<JavaClass> gantryOutside(String... allowedPrefixes) {
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
