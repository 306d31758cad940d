package dev.gantry;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Problem;
import dev.gantry.api.Workload;
import dev.gantry.core.FakeBackend;
import dev.gantry.model.JobRecord;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The facade's submit request: each named part checked as it is given, and what the facade submits with it. */
class SubmitRequestTest {
    @TempDir
    Path temp;

    private FakeBackend.Provider provider;
    private Plan plan;

    @BeforeEach
    void plan() {
        provider = new FakeBackend.Provider("fake");
        try (Gantry gantry = gantry()) {
            plan = gantry.plan(Workload.builder("train").label("team", "search").phase(Phase.TRAINING)
                    .model(ModelClass.SMALL).command("python", "train.py").build());
        }
    }

    private Gantry gantry() {
        return Gantry.builder().environment(Map.of()).workingDirectory(temp).home(temp).discoverBackends(false)
                .addBackendProvider(provider).override("backend", "fake").override("state.dir",
                        temp.resolve("state").toString()).build();
    }

    @Test
    void aBlankKeyIsRefusedNamingTheField() {
        GantryException e = assertThrows(GantryException.class, () -> SubmitRequest.of(plan).idempotencyKey(" "));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("submit request: idempotencyKey: must not be blank, got ' '; leave it unset for a fresh job id, "
                + "or give one that names this submit (for example nightly-2026-11-29)", e.getMessage());
        assertEquals(List.of("idempotencyKey"), e.problems().stream().map(Problem::path).toList());
    }

    @Test
    void aKeyAJobIdCannotCarryIsRefusedWithTheRuleAndTheFix() {
        GantryException e = assertThrows(GantryException.class,
                () -> SubmitRequest.of(plan).idempotencyKey("nightly 2026/11"));
        assertEquals(ErrorCode.USAGE, e.code());
        assertEquals("submit request: idempotencyKey: 'nightly 2026/11' is not a job id: it must be 1-128 letters, "
                + "digits, '.', '_' or '-'; replace the other characters (for example with '-') or shorten it",
                e.getMessage());
        assertThrows(GantryException.class, () -> SubmitRequest.of(plan).idempotencyKey("k".repeat(129)));
    }

    @Test
    void labelsFollowTheWorkloadsLabelRule() {
        GantryException badKey = assertThrows(GantryException.class,
                () -> SubmitRequest.of(plan).label("-team", "search"));
        assertEquals(ErrorCode.USAGE, badKey.code());
        assertEquals("submit request: labels.-team: label keys must be 1-63 letters, digits, '-', '_' or '.', got "
                + "'-team'; rename the key or shorten the value", badKey.getMessage());
        GantryException longValue = assertThrows(GantryException.class,
                () -> SubmitRequest.of(plan).label("team", "x".repeat(64)));
        assertTrue(longValue.getMessage().contains("labels.team: label values must be at most 63 characters, got 64"),
                longValue.getMessage());
        Map<String, String> withNull = new HashMap<>();
        withNull.put("team", null);
        GantryException nullValue = assertThrows(GantryException.class, () -> SubmitRequest.of(plan).labels(withNull));
        assertEquals("submit request: labels.team: a label's key and value must not be null, got team=null; leave "
                + "the label out instead", nullValue.getMessage());
    }

    @Test
    void eachNamedMethodReturnsANewRequestAndLeavesItsOriginAlone() {
        SubmitRequest bare = SubmitRequest.of(plan);
        SubmitRequest keyed = bare.idempotencyKey("nightly-1").specFile(Path.of("train.yaml")).label("team", "ml")
                .labels(Map.of("cost-center", "42"));
        assertEquals(Optional.empty(), bare.idempotencyKey());
        assertEquals(Map.of(), bare.labels());
        assertEquals(Optional.of("nightly-1"), keyed.idempotencyKey());
        assertEquals(Optional.of(Path.of("train.yaml")), keyed.specFile());
        assertEquals(List.of("team", "cost-center"), List.copyOf(keyed.labels().keySet()));
        assertSame(plan, keyed.plan());
        assertThrows(UnsupportedOperationException.class, () -> keyed.labels().put("x", "y"));
    }

    @Test
    void theRequestsLabelsJoinTheWorkloadsAndAreKeptInTheJobsRecord() {
        try (Gantry gantry = gantry()) {
            JobRecord job = gantry.submit(SubmitRequest.of(plan).idempotencyKey("labelled-1")
                    .label("team", "platform").label("cost-center", "42"));
            Map<String, String> expected = Map.of("team", "platform", "cost-center", "42");
            assertEquals(expected, job.labels(), "the request's team wins over the workload's");
            assertEquals(expected, provider.backend.submitted.get(0).workload().labels(),
                    "the backend gets the labels with the plan");
            assertEquals(expected, gantry.storedJobs().get(0).labels(), "read back from the state database");
            assertEquals(Map.of("team", "search"), plan.workload().labels(), "the caller's plan is left as it was");
        }
        try (Gantry reopened = gantry()) {
            assertEquals(Map.of("team", "platform", "cost-center", "42"), reopened.job("labelled-1").labels());
        }
    }

    @Test
    @SuppressWarnings("deprecation")
    void theDeprecatedMethodSubmitsWhatTheRequestDoes() {
        try (Gantry gantry = gantry()) {
            JobRecord viaRequest = gantry.submit(SubmitRequest.of(plan).idempotencyKey("same-key")
                    .specFile(Path.of("train.yaml")));
            JobRecord viaOptionals = gantry.submit(plan, Optional.of("same-key"), Optional.of("train.yaml"));
            assertEquals(viaRequest, viaOptionals, "the same key gives the same job");
            assertEquals(1, provider.backend.jobs.size(), "one job made for both");
            assertEquals(Optional.of("train.yaml"), viaOptionals.specFile());

            JobRecord fresh = gantry.submit(plan, Optional.empty(), Optional.empty());
            assertTrue(fresh.id().startsWith("train-"), fresh.id());
            assertEquals(Optional.empty(), fresh.specFile());
            assertEquals(Map.of("team", "search"), fresh.labels(), "the workload's own labels are kept");
            GantryException e = assertThrows(GantryException.class,
                    () -> gantry.submit(plan, Optional.of("bad key"), Optional.empty()));
            assertEquals(ErrorCode.USAGE, e.code(), "checked as the request checks it: " + e.getMessage());
        }
    }
}
