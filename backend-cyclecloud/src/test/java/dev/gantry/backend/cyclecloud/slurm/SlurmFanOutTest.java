package dev.gantry.backend.cyclecloud.slurm;

import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.awaitEnd;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.awaitState;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.lines;
import static dev.gantry.backend.cyclecloud.slurm.ClusterTesting.plan;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Plan;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.Submission;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.tck.TckContext;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * A fan-out ({@code Backend.submitAll}) on the real Slurm test cluster: jobs that differ only in their key go as one
 * Slurm job array, and each of them is still a job of its own to status, logs, cancel, dependencies and a retry.
 */
class SlurmFanOutTest {
    private final TestCluster cluster = TestCluster.get();
    private TckContext context;
    private Map<String, String> settings;
    private Path workDir;

    @BeforeEach
    void setUp() {
        context = TckContext.create();
        settings = cluster.settings();
        workDir = Path.of(settings.get("workDir"));
    }

    @AfterEach
    void tearDown() {
        context.close();
    }

    private Backend backend() {
        return ClusterTesting.backend(settings, context);
    }

    private String slurmId(JobRef job) throws IOException {
        return Files.readString(workDir.resolve(job.id()).resolve("slurm-id")).strip();
    }

    /** Each job's Slurm id, as its directory records it. */
    private List<String> slurmIds(List<JobRef> jobs) throws IOException {
        List<String> ids = new ArrayList<>();
        for (JobRef job : jobs) {
            ids.add(slurmId(job));
        }
        return ids;
    }

    /** {@code count} submissions of one plan that differ only in their key, {@code run-0} to {@code run-(count-1)}. */
    private static List<Submission> alike(Plan plan, String run, int count) {
        List<Submission> submissions = new ArrayList<>();
        for (int i = 0; i < count; i++) {
            submissions.add(new Submission(plan, SubmitOptions.withKey(run + "-" + i)));
        }
        return submissions;
    }

    @Test
    void likeJobsGoAsOneArrayAndEachIsTrackedLoggedAndRetriedAsItsOwn() throws Exception {
        String run = "fan-" + UUID.randomUUID();
        Plan each = plan("fan", "sh", "-c", "echo \"task of $GANTRY_JOB_ID\"");
        List<Submission> submissions = alike(each, run, 4);
        // Another command: not one of the array's tasks.
        submissions.add(new Submission(plan("other", "sh", "-c", "echo alone"), SubmitOptions.withKey(run + "-x")));
        try (Backend backend = backend()) {
            List<JobRef> refs = backend.submitAll(submissions);
            assertEquals(5, refs.size());
            List<String> ids = slurmIds(refs);
            String array = ids.get(0).split("_")[0];
            for (int i = 0; i < 4; i++) {
                assertEquals(array + "_" + i, ids.get(i), "job " + i + " is task " + i + " of one array: " + ids);
            }
            assertTrue(ids.get(4).matches("\\d+"), "a job of another shape goes on its own: " + ids);
            assertEquals("job-" + run + "-0+array", TestCluster.slurm("squeue", "-h", "-t", "all", "-j", array,
                    "-o", "%j").lines().distinct().findFirst().orElse("").strip(), "the array is named after its "
                    + "first job");

            for (int i = 0; i < refs.size(); i++) {
                JobStatus status = awaitEnd(backend, refs.get(i));
                assertEquals(JobState.SUCCEEDED, status.state(), refs.get(i) + ": " + status);
            }
            for (int i = 0; i < 4; i++) {
                assertEquals(List.of("task of " + refs.get(i).id()), lines(backend, refs.get(i)));
                Path dir = workDir.resolve(refs.get(i).id());
                assertFalse(Files.exists(dir.resolve("env")), "the environment file goes once the job ended");
                assertTrue(Files.exists(dir.resolve("job.sh")), "each task keeps its own job.sh");
            }
            assertEquals(List.of("alone"), lines(backend, refs.get(4)));
            // One poll for all of them: each task's status is its own.
            Map<JobRef, JobStatus> all = backend.statuses(refs);
            assertTrue(all.values().stream().allMatch(s -> s.state() == JobState.SUCCEEDED), all.toString());

            // The same fan-out again adopts every job: no second array, no second job.
            List<JobRef> again = backend.submitAll(submissions);
            assertEquals(refs, again);
            assertEquals(ids, slurmIds(again));
            assertEquals(1, TestCluster.slurm("squeue", "-h", "-t", "all", "-n", "job-" + run + "-0+array", "-o",
                    "%F").lines().filter(l -> !l.isBlank()).distinct().count());
        }
    }

    @Test
    void oneTaskCancelledLeavesTheOthersAndALaterJobWaitsForATask() throws Exception {
        String run = "fanc-" + UUID.randomUUID();
        Plan each = plan("fanc", "sh", "-c", "sleep 2; echo done");
        List<Submission> submissions = alike(each, run, 3);
        try (Backend backend = backend()) {
            List<JobRef> refs = backend.submitAll(submissions);
            backend.cancel(refs.get(1));
            JobRef after = backend.submit(plan("after", "sh", "-c", "echo after task 2"),
                    SubmitOptions.withKey(run + "-after").dependingOn(new JobDependency(refs.get(2),
                            JobDependency.Condition.AFTER_SUCCESS)));
            assertEquals(JobState.CANCELLED, awaitEnd(backend, refs.get(1)).state());
            assertEquals(JobState.SUCCEEDED, awaitEnd(backend, refs.get(0)).state());
            assertEquals(JobState.SUCCEEDED, awaitEnd(backend, refs.get(2)).state());
            assertEquals(JobState.SUCCEEDED, awaitEnd(backend, after).state());
            assertEquals(List.of("after task 2"), lines(backend, after));
        }
    }

    @Test
    void aDependentsSlurmIdsAreReadInItsOwnSubmitCommandNotOneReadEach() throws Exception {
        String run = "fand-" + UUID.randomUUID();
        try (Backend backend = backend()) {
            List<JobRef> refs = backend.submitAll(alike(plan("fand", "sh", "-c", "echo dependency"), run, 3));
            List<JobDependency> dependencies = refs.stream().map(JobDependency::afterSuccess).toList();
            long before = backend.remoteCalls().orElseThrow();
            JobRef after = backend.submit(plan("after", "sh", "-c", "echo after all three"),
                    SubmitOptions.withKey(run + "-after").dependingOn(dependencies));
            assertEquals(1, backend.remoteCalls().orElseThrow() - before, "one remote command for the submit and "
                    + "the three ids it needs");
            String script = Files.readString(workDir.resolve(after.id()).resolve("job.sh"));
            assertTrue(script.contains("--dependency=afterok:" + String.join(",afterok:", slurmIds(refs))),
                    "the recorded ids are in the script in place of their placeholders:\n" + script);
            assertFalse(script.contains("{recorded-id:"), script);
            assertEquals(JobState.SUCCEEDED, awaitEnd(backend, after).state());
            assertEquals(List.of("after all three"), lines(backend, after));

            JobRef never = new JobRef("cyclecloud", "job-" + run + "-never");
            dev.gantry.api.GantryException missing = org.junit.jupiter.api.Assertions.assertThrows(
                    dev.gantry.api.GantryException.class, () -> backend.submit(plan("orphan", "true"),
                            SubmitOptions.withKey(run + "-orphan").dependingOn(List.of(
                                    JobDependency.afterSuccess(never)))));
            assertEquals(dev.gantry.api.ErrorCode.JOB_NOT_FOUND, missing.code());
            assertTrue(missing.getMessage().contains("job-" + run + "-never"), missing.getMessage());
            assertFalse(Files.exists(workDir.resolve("job-" + run + "-orphan")), "the key is free again");
        }
    }

    @Test
    void aRetryAfterTheSubmitDiedBeforeRecordingTheTasksAdoptsThemByTheArraysName() throws Exception {
        String run = "fanr-" + UUID.randomUUID();
        Plan each = plan("fanr", "sh", "-c", "sleep 20");
        List<Submission> submissions = alike(each, run, 3);
        try (Backend backend = backend()) {
            List<JobRef> refs = backend.submitAll(submissions);
            List<String> ids = slurmIds(refs);
            awaitState(backend, refs.get(0), JobState.RUNNING);
            // As if the submit had been killed after sbatch answered and before it recorded anything: no task id
            // and no array id on the cluster, and the claim's holder long gone.
            for (JobRef ref : refs) {
                TestCluster.slurm("rm", "-f", workDir.resolve(ref.id()).resolve("slurm-id").toString());
            }
            String name = "job-" + run + "-0+array";
            TestCluster.slurm("rm", "-f", workDir.resolve("arrays").resolve(name + ".id").toString());
            List<JobRef> again = backend.submitAll(submissions);
            assertEquals(refs, again);
            assertEquals(ids, slurmIds(again), "each job adopts its own task of the array");
            assertEquals(1, TestCluster.slurm("squeue", "-h", "-t", "all", "-u", cluster.value("LOGIN_USER"), "-n",
                    name, "-o", "%F").lines().filter(l -> !l.isBlank()).distinct().count(), "no second array");
            for (JobRef ref : refs) {
                backend.cancel(ref);
                assertEquals(JobState.CANCELLED, awaitEnd(backend, ref).state());
            }
        }
    }
}
