package dev.gantry.architecture;

import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.EvaluationResult;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Every layer rule shown failing on a deliberate violation: test classes placed in the packages a rule guards and
 * doing what it forbids. {@link ArchitectureTest} proves the production classes pass the same rules, so each rule
 * both can fail and does not.
 */
class LayerRulesCatchViolationsTest {
    static Stream<Arguments> violations() {
        return Stream.of(
                Arguments.of("apiDependsOnTheJdkOnly", LayerRules.apiDependsOnTheJdkOnly(), "dev.gantry.api.violating.ApiUsingJackson"),
                Arguments.of("httpRetriesDependOnTheJdkOnly", LayerRules.httpRetriesDependOnTheJdkOnly(),
                        "dev.gantry.http.violating.HttpUsingTheApi"),
                Arguments.of("supportModuleDependsOnTheApiOnly(hosts)",
                        LayerRules.supportModuleDependsOnTheApiOnly("hosts"), "dev.gantry.hosts.violating.HostsUsingAzure"),
                Arguments.of("supportModuleDependsOnTheApiOnly(ssh)",
                        LayerRules.supportModuleDependsOnTheApiOnly("ssh"), "dev.gantry.ssh.violating.SshUsingCli"),
                Arguments.of("backendsNeverDependOnCoreImagesOrEachOther: core",
                        LayerRules.backendsNeverDependOnCoreImagesOrEachOther(), "dev.gantry.backend.violating.BackendUsingCore"),
                Arguments.of("backendsNeverDependOnCoreImagesOrEachOther: another backend",
                        LayerRules.backendsNeverDependOnCoreImagesOrEachOther(), "dev.gantry.backend.violating.BackendUsingManual"),
                Arguments.of("backendsNeverDependOnCoreImagesOrEachOther: a support module's internals",
                        LayerRules.backendsNeverDependOnCoreImagesOrEachOther(), "dev.gantry.backend.violating.BackendUsingHostsInternals"),
                Arguments.of("coreNeverImportsABackend", LayerRules.coreNeverImportsABackend(),
                        "dev.gantry.core.violating.CoreUsingBackend"),
                Arguments.of("coreOnlyDecides: a database", LayerRules.coreOnlyDecides(),
                        "dev.gantry.core.violating.CoreOpeningADatabase"),
                Arguments.of("coreOnlyDecides: a process", LayerRules.coreOnlyDecides(),
                        "dev.gantry.core.violating.CoreStartingAProcess"),
                Arguments.of("coreOnlyDecides: the run engine", LayerRules.coreOnlyDecides(),
                        "dev.gantry.core.violating.CoreUsingTheRunEngine"),
                Arguments.of("coreOnlyDecides: the Azure module", LayerRules.coreOnlyDecides(),
                        "dev.gantry.core.violating.CoreUsingTheAzureModule"),
                Arguments.of("subFacadesNeverCallBackIntoTheFacade", LayerRules.subFacadesNeverCallBackIntoTheFacade(),
                        "dev.gantry.SubFacadeHoldingTheFacade"),
                Arguments.of("coreAndCliReachAzureOnlyThroughTheAzureModule",
                        LayerRules.coreAndCliReachAzureOnlyThroughTheAzureModule(), "dev.gantry.core.violating.CoreUsingAzureSdk"),
                Arguments.of("coreAndCliReachAzureOnlyThroughTheAzureModule: the Batch SDK outside the Batch internals",
                        LayerRules.coreAndCliReachAzureOnlyThroughTheAzureModule(),
                        "dev.gantry.backend.violating.BackendUsingTheBatchSdkOutsideItsInternals"),
                Arguments.of("coreAndCliReachAzureOnlyThroughTheAzureModule: the Batch SDK in the Azure module",
                        LayerRules.coreAndCliReachAzureOnlyThroughTheAzureModule(),
                        "dev.gantry.azure.violating.AzureModuleUsingTheBatchSdk"),
                Arguments.of("nothingDependsOnTheTopLayers", LayerRules.nothingDependsOnTheTopLayers(),
                        "dev.gantry.ssh.violating.SshUsingCli"),
                Arguments.of("topLayersNeverReachAnInternalPackage",
                        LayerRules.topLayersNeverReachAnInternalPackage(), "dev.gantry.cli.violating.CliUsingInternal"),
                Arguments.of("cliUsesOnlyTheFacadeAndItsPublicModel",
                        LayerRules.cliUsesOnlyTheFacadeAndItsPublicModel(), "dev.gantry.cli.violating.CliProvisioningItself"),
                Arguments.of("cliUsesOnlyTheFacadeAndItsPublicModel: reading a spec",
                        LayerRules.cliUsesOnlyTheFacadeAndItsPublicModel(), "dev.gantry.cli.violating.CliReadingSpecsItself"),
                Arguments.of("thePublicModelStandsOnTheApiAlone", LayerRules.thePublicModelStandsOnTheApiAlone(),
                        "dev.gantry.model.violating.ModelReachingIntoCore"),
                Arguments.of("noPackageCycles", LayerRules.noPackageCycles(), "dev.gantry.violating.cycle.a.CycleA"),
                Arguments.of("onlyCoreWiringTouchesDagger", LayerRules.onlyCoreWiringTouchesDagger(),
                        "dev.gantry.cli.violating.CliUsingDagger"),
                Arguments.of("backendProvidersArePublicWithAPublicNoArgumentConstructor",
                        LayerRules.backendProvidersArePublicWithAPublicNoArgumentConstructor(), "dev.gantry.backend.violating.internal.HiddenProvider"),
                Arguments.of("backendModulesExposeOnlyTheirProvider",
                        LayerRules.backendModulesExposeOnlyTheirProvider(), "dev.gantry.backend.violating.BackendUsingCore"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("violations")
    void theRuleFailsOnItsViolation(String rule, ArchRule check, String violating) {
        // The fixture's package, imported whole: some fixtures cannot be named from here (package-private, as the
        // violations they stage must be); the cycle's package brings both of its halves.
        String pkg = violating.substring(0, violating.lastIndexOf('.'));
        JavaClasses classes = new ClassFileImporter().importPackages(pkg.endsWith(".cycle.a")
                ? pkg.substring(0, pkg.length() - 2) : pkg);
        assertTrue(classes.contain(violating), "the fixture " + violating + " must be on the test class path");
        EvaluationResult result = check.evaluate(classes);
        assertTrue(result.hasViolation(), rule + " must report " + violating);
        String report = result.getFailureReport().toString();
        assertTrue(report.contains(violating), rule + " names the violating class: " + report);
    }
}
