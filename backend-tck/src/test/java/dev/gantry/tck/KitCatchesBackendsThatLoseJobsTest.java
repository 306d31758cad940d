package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.lang.reflect.Method;
import java.util.Arrays;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import java.util.stream.Collectors;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Nested;
import org.junit.jupiter.api.Test;
import org.junit.platform.engine.TestExecutionResult;
import org.junit.platform.engine.discovery.DiscoverySelectors;
import org.junit.platform.engine.support.descriptor.MethodSource;
import org.junit.platform.launcher.Launcher;
import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;
import org.junit.platform.launcher.core.LauncherDiscoveryRequestBuilder;
import org.junit.platform.launcher.core.LauncherFactory;

/**
 * Evidence that the restart cases can fail: the whole kit runs against a backend that keeps its jobs as it should,
 * one that keeps them in memory (JOB_NOT_FOUND after a restart) and one whose close() stops them; and that the
 * idle-resource case can: against one whose release keeps what it says it released. The first passes
 * every case; each flawed one fails exactly the restart cases its flaw breaks and passes all the others.
 */
class KitCatchesBackendsThatLoseJobsTest {
    private static final Set<String> RESTART_CASES = Set.of("aRunningJobOutlivesTheInstanceThatSubmittedIt",
            "anEndedJobKeepsItsStatusAndLogsAfterARestart", "aSubmitRetriedThroughASecondInstanceReturnsTheSameJob");
    /** Cases for what the test backend cannot do (several nodes, containers, dependencies, requeues). */
    private static final Set<String> SKIPPED_BY_CAPABILITY = Set.of("twoNodeRanksMeetAtTheMaster",
            "containerRunUsesTheImage", "aDependentJobStartsOnlyAfterItsDependencySucceeded", "cancelOfAPendingJob",
            "evictedJobIsRequeuedNeverFailed");

    @AfterAll
    static void endJobsLeftRunning() {
        LocalProcessBackend.killAll(); // what the flawed backends forgot, nobody can cancel through the kit
    }

    @Test
    void aBackendThatKeepsItsJobsPassesEveryCase() {
        Outcome outcome = run(LocalProcessKit.Sound.class);
        assertEquals(Map.of(), outcome.failed);
        assertEquals(SKIPPED_BY_CAPABILITY, outcome.skipped);
        assertEquals(without(allCases(), SKIPPED_BY_CAPABILITY), outcome.succeeded);
    }

    @Test
    void aBackendThatKeepsItsJobsInMemoryFailsTheRestartCasesAndNoOther() {
        Outcome outcome = run(LocalProcessKit.ForgetsJobsOnRestart.class);
        assertEquals(RESTART_CASES, outcome.failed.keySet(), () -> "failures: " + outcome.failed);
        assertTrue(outcome.failed.get("aRunningJobOutlivesTheInstanceThatSubmittedIt").contains("does not know"),
                outcome.failed::toString);
        assertTrue(outcome.failed.get("aSubmitRetriedThroughASecondInstanceReturnsTheSameJob")
                .contains("same idempotency key"), outcome.failed::toString);
        assertEquals(SKIPPED_BY_CAPABILITY, outcome.skipped);
        assertEquals(without(allCases(), SKIPPED_BY_CAPABILITY, RESTART_CASES), outcome.succeeded);
    }

    @Test
    void aBackendWhoseCloseStopsItsJobsFailsTheCasesThatCloseBeforeTheJobEnds() {
        Outcome outcome = run(LocalProcessKit.StopsJobsOnClose.class);
        Set<String> broken = Set.of("aRunningJobOutlivesTheInstanceThatSubmittedIt",
                "aSubmitRetriedThroughASecondInstanceReturnsTheSameJob");
        assertEquals(broken, outcome.failed.keySet(), () -> "failures: " + outcome.failed);
        assertTrue(outcome.failed.get("aRunningJobOutlivesTheInstanceThatSubmittedIt")
                .contains("must leave it running"), outcome.failed::toString);
        assertEquals(SKIPPED_BY_CAPABILITY, outcome.skipped);
        assertEquals(without(allCases(), SKIPPED_BY_CAPABILITY, broken), outcome.succeeded);
    }

    @Test
    void aBackendWhoseReleaseKeepsTheResourceFailsTheIdleResourceCaseAndNoOther() {
        Outcome outcome = run(LocalProcessKit.KeepsReleasedResources.class);
        assertEquals(Set.of("anIdleResourceLeavesTheListOnceReleased"), outcome.failed.keySet(),
                () -> "failures: " + outcome.failed);
        assertTrue(outcome.failed.get("anIdleResourceLeavesTheListOnceReleased")
                .contains("was released but is still reported idle"), outcome.failed::toString);
        assertEquals(SKIPPED_BY_CAPABILITY, outcome.skipped);
        assertEquals(without(allCases(), SKIPPED_BY_CAPABILITY, outcome.failed.keySet()), outcome.succeeded);
    }

    /** Every case of the kit: the test methods of the groups its nested classes run. */
    private static Set<String> allCases() {
        return Arrays.stream(BackendConformanceTest.class.getDeclaredClasses())
                .filter(nested -> nested.isAnnotationPresent(Nested.class))
                .flatMap(nested -> Arrays.stream(nested.getSuperclass().getDeclaredMethods()))
                .filter(method -> method.isAnnotationPresent(Test.class)).map(Method::getName)
                .collect(Collectors.toCollection(TreeSet::new));
    }

    @SafeVarargs
    private static Set<String> without(Set<String> all, Set<String>... removed) {
        Set<String> rest = new TreeSet<>(all);
        Arrays.stream(removed).forEach(rest::removeAll);
        return rest;
    }

    private static Outcome run(Class<?> kit) {
        Outcome outcome = new Outcome();
        Launcher launcher = LauncherFactory.create();
        launcher.execute(LauncherDiscoveryRequestBuilder.request().selectors(DiscoverySelectors.selectClass(kit))
                .build(), outcome);
        assertEquals(Map.of(), outcome.containersFailed, "the kit's classes themselves must run");
        return outcome;
    }

    /**
     * Each case's result by method name (skipped: aborted by an assumption), and each container (a class) that failed,
     * by its display name.
     */
    private static final class Outcome implements TestExecutionListener {
        final Set<String> succeeded = new TreeSet<>();
        final Set<String> skipped = new TreeSet<>();
        final Map<String, String> failed = new TreeMap<>();
        final Map<String, String> containersFailed = new ConcurrentHashMap<>();

        @Override
        public synchronized void executionFinished(TestIdentifier test, TestExecutionResult result) {
            String why = result.getThrowable().map(Throwable::toString).orElse(result.getStatus().toString());
            if (test.isContainer()) {
                if (result.getStatus() != TestExecutionResult.Status.SUCCESSFUL) {
                    containersFailed.put(test.getDisplayName(), why);
                }
                return;
            }
            method(test).ifPresent(name -> {
                if (result.getStatus() == TestExecutionResult.Status.SUCCESSFUL) {
                    succeeded.add(name);
                } else if (result.getStatus() == TestExecutionResult.Status.ABORTED) {
                    skipped.add(name); // an assumption the case made did not hold
                } else {
                    failed.put(name, why);
                }
            });
        }

        private static java.util.Optional<String> method(TestIdentifier test) {
            return test.getSource().filter(MethodSource.class::isInstance).map(s -> ((MethodSource) s).getMethodName());
        }
    }
}
