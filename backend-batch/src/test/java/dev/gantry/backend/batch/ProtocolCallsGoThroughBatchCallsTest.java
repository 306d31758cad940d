package dev.gantry.backend.batch;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.codeUnits;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noFields;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.tngtech.archunit.base.DescribedPredicate;
import com.tngtech.archunit.core.domain.JavaClass;
import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.domain.JavaCodeUnit;
import com.tngtech.archunit.core.domain.JavaMethodCall;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import com.tngtech.archunit.core.importer.ImportOption;
import com.tngtech.archunit.lang.ArchCondition;
import com.tngtech.archunit.lang.ArchRule;
import com.tngtech.archunit.lang.ConditionEvents;
import com.tngtech.archunit.lang.SimpleConditionEvent;
import dev.gantry.backend.batch.internal.remote.AccountCalls;
import dev.gantry.backend.batch.internal.rest.BatchConnection;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Test;

/**
 * Every request to Batch goes through {@code BatchCalls}, the one retry and quota policy: a status poll, a log read
 * or a gc call made around it would give up on the first 429 or dropped connection, or retry on a policy of its own.
 * The protocol client is reached only through {@link AccountCalls}, which hands it to a request inside the policy;
 * these rules keep every other way to it closed (javac compiles a lambda into a method ArchUnit attributes to the
 * method that wrote it, so "inside a request" reads as: the method also hands a request to {@link AccountCalls}, or
 * was itself given the client by one):
 * <ol>
 *   <li>only {@link AccountCalls} asks a connection for its client, and only {@code internal.rest} builds one;</li>
 *   <li>no field holds a client or its operations, so none outlives its request;</li>
 *   <li>no method outside {@code internal.rest} returns a client or its operations, so none leaves its request;</li>
 *   <li>a method that calls the protocol layer hands a request to {@link AccountCalls}, or takes the client as a
 *       parameter (a helper a request calls).</li>
 * </ol>
 */
class ProtocolCallsGoThroughBatchCallsTest {
    private static final String REST = "dev.gantry.backend.batch.internal.rest..";
    /** The SDK's protocol layer: the client and its operations ({@code Tasks}, {@code Pools}, ...), not its models. */
    private static final String PROTOCOL = "com.microsoft.azure.batch.protocol";
    private static final String SERVICE_CLIENT = PROTOCOL + ".BatchServiceClient";

    private static final DescribedPredicate<JavaClass> PROTOCOL_LAYER = DescribedPredicate.describe(
            "the Batch protocol layer", type -> type.getPackageName().equals(PROTOCOL)
                    || type.getPackageName().equals(PROTOCOL + ".implementation"));

    private static final JavaClasses MAIN = new ClassFileImporter()
            .withImportOption(ImportOption.Predefined.DO_NOT_INCLUDE_TESTS)
            .importPackages("dev.gantry.backend.batch");

    private static final JavaClasses PLANTED = new ClassFileImporter()
            .importPackages("dev.gantry.backend.batch.bypassing");

    static final List<ArchRule> RULES = List.of(
            noClasses().that().doNotHaveFullyQualifiedName(AccountCalls.class.getName())
                    .and().resideOutsideOfPackage(REST)
                    .should().callMethod(BatchConnection.class, "protocol")
                    .orShould().callMethodWhere(DescribedPredicate.describe("the SDK builds a client",
                            (JavaMethodCall call) -> call.getTargetOwner().getName()
                                    .equals("com.microsoft.azure.batch.BatchClient")))
                    .as("only AccountCalls asks a connection for its protocol client, and only internal.rest "
                            + "builds one"),
            noFields().that().areDeclaredInClassesThat().resideOutsideOfPackage(REST)
                    .should().haveRawType(PROTOCOL_LAYER)
                    .as("no field outside internal.rest holds the protocol client or its operations"),
            codeUnits().that().areDeclaredInClassesThat().resideOutsideOfPackage(REST)
                    .should(new ArchCondition<JavaCodeUnit>("not return the protocol client or its operations") {
                        @Override
                        public void check(JavaCodeUnit unit, ConditionEvents events) {
                            if (PROTOCOL_LAYER.test(unit.getRawReturnType())) {
                                events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " returns "
                                        + unit.getRawReturnType().getSimpleName()));
                            }
                        }
                    })
                    .as("no method outside internal.rest returns the protocol client or its operations"),
            codeUnits().that().areDeclaredInClassesThat().resideOutsideOfPackage(REST)
                    .and().areDeclaredInClassesThat().doNotHaveFullyQualifiedName(AccountCalls.class.getName())
                    .should(new ArchCondition<JavaCodeUnit>("make its protocol calls inside a request of AccountCalls") {
                        @Override
                        public void check(JavaCodeUnit unit, ConditionEvents events) {
                            TreeSet<String> protocolCalls = new TreeSet<>();
                            boolean handsARequest = false;
                            for (JavaMethodCall call : unit.getMethodCallsFromSelf()) {
                                if (PROTOCOL_LAYER.test(call.getTargetOwner())) {
                                    protocolCalls.add(call.getTarget().getFullName());
                                }
                                handsARequest |= call.getTargetOwner().isEquivalentTo(AccountCalls.class);
                            }
                            boolean givenTheClient = unit.getRawParameterTypes().stream()
                                    .anyMatch(type -> type.getName().equals(SERVICE_CLIENT));
                            if (!protocolCalls.isEmpty() && !handsARequest && !givenTheClient) {
                                events.add(SimpleConditionEvent.violated(unit, unit.getFullName() + " calls "
                                        + protocolCalls + " outside any request of AccountCalls"));
                            }
                        }
                    })
                    .as("protocol calls are made only inside a request of AccountCalls"));

    @Test
    void everyProtocolCallOfTheModuleGoesThroughBatchCalls() {
        assertTrue(MAIN.contain("dev.gantry.backend.batch.internal.status.TaskStatuses"),
                "the module's classes were imported");
        for (ArchRule rule : RULES) {
            rule.check(MAIN);
        }
    }

    @Test
    void eachRuleCatchesItsPlantedViolation() {
        assertTrue(PLANTED.contain("dev.gantry.backend.batch.bypassing.CallsBatchAroundTheRetryPolicy"),
                "the planted class was imported");
        assertEquals(List.of("listsTasksDirectly"), violations(RULES.get(0)));
        assertEquals(List.of("kept"), violations(RULES.get(1)));
        assertEquals(List.of("client", "tasksOf"), violations(RULES.get(2)));
        assertEquals(List.of("listsTasksDirectly"), violations(RULES.get(3)));
    }

    /** The planted members a rule names, in order. */
    private static List<String> violations(ArchRule rule) {
        TreeSet<String> members = new TreeSet<>();
        for (String detail : rule.evaluate(PLANTED).getFailureReport().getDetails()) {
            for (String member : List.of("listsTasksDirectly", "leaksTheClientFromARequest", "kept", "client(",
                    "tasksOf")) {
                if (detail.contains("CallsBatchAroundTheRetryPolicy." + member)) {
                    members.add(member.replace("(", ""));
                }
            }
        }
        return List.copyOf(members);
    }
}
