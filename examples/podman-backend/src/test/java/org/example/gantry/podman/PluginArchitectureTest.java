package org.example.gantry.podman;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.classes;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaModifier;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.Test;

/**
 * What makes it a plugin Gantry's plugins directory can load: the API and the JDK underneath it and nothing else of
 * Gantry (its class loader shows it nothing else), and one public provider outside the internal package.
 */
class PluginArchitectureTest {
    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("org.example.gantry.podman");

    @Test
    void dependsOnGantrysApiAndTheJdkOnly() {
        classes().should().onlyDependOnClassesThat()
                .resideInAnyPackage("dev.gantry.api..", "org.example.gantry.podman..", "java..")
                .check(MAIN);
    }

    @Test
    void onlyTheProviderIsPublicOutsideInternal() {
        classes().that().resideInAPackage("org.example.gantry.podman")
                .and().haveModifier(JavaModifier.PUBLIC)
                .should().haveSimpleName("PodmanBackendProvider")
                .check(MAIN);
    }
}
