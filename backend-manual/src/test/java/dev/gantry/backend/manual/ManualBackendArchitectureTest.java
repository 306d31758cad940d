package dev.gantry.backend.manual;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * The module's shape: one public provider, and nothing but the API, the public surfaces of the SSH and hosts modules
 * and the JDK underneath it.
 */
class ManualBackendArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.backend.manual");

    @Test
    void onlyTheProviderIsPublicOutsideInternal() {
        classes().that().resideInAPackage("dev.gantry.backend.manual")
                .and().haveModifier(JavaModifier.PUBLIC)
                .should().haveSimpleName("ManualBackendProvider")
                .check(MAIN);
    }

    @Test
    void dependsOnTheApiAndTheJdkOnly() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.gantry.api..", "dev.gantry.ssh", "dev.gantry.hosts", "dev.gantry.hosts.probe",
                        "dev.gantry.hosts.events", "dev.gantry.hosts.container", "dev.gantry.hosts.jobs",
                        "dev.gantry.backend.manual..", "java..")
                .check(MAIN);
    }
}
