package dev.gantry.architecture;

import static org.junit.jupiter.api.Assertions.assertFalse;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

/**
 * The layering rules of {@link LayerRules}, one per concern, over the production classes of every module (the CLI's
 * class path holds them all). Each test's name says what it protects; LayerRulesCatchViolationsTest shows each rule
 * failing on a deliberate violation.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class ArchitectureTest {
    private JavaClasses gantry;

    @BeforeAll
    void importClasses() {
        gantry = new ClassFileImporter()
                .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
                // Modules' published test fixtures (the Azure fakes, the SSH test hosts) arrive as *-tests.jar: tests.
                .withImportOption(location -> !location.contains("-tests.jar"))
                .importPackages("dev.gantry");
        for (String module : new String[] {"dev.gantry.backend.manual", "dev.gantry.hosts", "dev.gantry.azure",
                "dev.gantry.ssh", "dev.gantry.http", "dev.gantry.core", "dev.gantry.runs", "dev.gantry.benchmarks"}) {
            assertFalse(gantry.stream().noneMatch(c -> c.getPackageName().startsWith(module)),
                    module + " must be on the class path for these rules to mean anything");
        }
    }

    @Test
    void apiDependsOnTheJdkOnly() {
        LayerRules.apiDependsOnTheJdkOnly().check(gantry);
    }

    @Test
    void sshLibraryDependsOnTheApiOnly() {
        LayerRules.supportModuleDependsOnTheApiOnly("ssh").check(gantry);
    }

    @Test
    void hostsModuleDependsOnTheApiAndSshOnly() {
        LayerRules.supportModuleDependsOnTheApiOnly("hosts").check(gantry);
    }

    @Test
    void httpRetriesDependOnTheJdkOnly() {
        LayerRules.httpRetriesDependOnTheJdkOnly().check(gantry);
    }

    @Test
    void azureModuleDependsOnTheApiAndHttpOnly() {
        LayerRules.supportModuleDependsOnTheApiOnly("azure").check(gantry);
    }

    @Test
    void imagesDependOnTheApiOnly() {
        LayerRules.supportModuleDependsOnTheApiOnly("images").check(gantry);
    }

    @Test
    void conformanceKitDependsOnTheApiOnly() {
        LayerRules.supportModuleDependsOnTheApiOnly("tck").check(gantry);
    }

    @Test
    void backendsNeverDependOnCoreImagesOrEachOther() {
        LayerRules.backendsNeverDependOnCoreImagesOrEachOther().check(gantry);
    }

    @Test
    void cliUsesOnlyTheFacadeAndItsPublicModel() {
        LayerRules.cliUsesOnlyTheFacadeAndItsPublicModel().check(gantry);
    }

    @Test
    void thePublicModelStandsOnTheApiAlone() {
        LayerRules.thePublicModelStandsOnTheApiAlone().check(gantry);
    }

    @Test
    void coreOnlyDecides() {
        LayerRules.coreOnlyDecides().check(gantry);
    }

    @Test
    void subFacadesNeverCallBackIntoTheFacade() {
        LayerRules.subFacadesNeverCallBackIntoTheFacade().check(gantry);
    }

    @Test
    void coreNeverImportsABackend() {
        LayerRules.coreNeverImportsABackend().check(gantry);
    }

    @Test
    void coreAndCliReachAzureOnlyThroughTheAzureModule() {
        LayerRules.coreAndCliReachAzureOnlyThroughTheAzureModule().check(gantry);
    }

    @Test
    void theBatchBackendReachesOnlyTheBatchSdkItself() {
        LayerRules.theBatchBackendReachesOnlyTheBatchSdkItself().check(gantry);
    }

    @Test
    void nothingDependsOnTheTopLayers() {
        LayerRules.nothingDependsOnTheTopLayers().check(gantry);
    }

    @Test
    void topLayersNeverReachAnInternalPackage() {
        LayerRules.topLayersNeverReachAnInternalPackage().check(gantry);
    }

    @Test
    void noPackageCycles() {
        LayerRules.noPackageCycles().check(gantry);
    }

    @Test
    void onlyCoreWiringTouchesDagger() {
        LayerRules.onlyCoreWiringTouchesDagger().check(gantry);
    }

    @Test
    void backendProvidersArePublicWithAPublicNoArgumentConstructor() {
        LayerRules.backendProvidersArePublicWithAPublicNoArgumentConstructor().check(gantry);
    }

    @Test
    void backendModulesExposeOnlyTheirProvider() {
        LayerRules.backendModulesExposeOnlyTheirProvider().check(gantry);
    }
}
