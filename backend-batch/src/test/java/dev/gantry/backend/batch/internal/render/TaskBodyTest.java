package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.Plan;
import dev.gantry.api.backend.FabricEnvironment;
import dev.gantry.api.backend.JobDependency;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.SubmitOptions;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class TaskBodyTest {
    private static final String JOB = "gantry-d2s-v5-spot-0123456789ab";
    private static final Plan QUICKSTART = ExamplePlans.quickstart().plan();

    private static TaskBody.Result render(Plan plan, SubmitOptions options, List<String> runOptions) {
        return TaskBody.render(new TaskBody.Input(plan, options, "mlbatch", JOB, 29500, Duration.ofHours(36),
                runOptions, Optional.empty()));
    }

    private static JobRef ref(String job, String task) {
        return new JobRef("batch", "mlbatch." + job + "." + task);
    }

    @Test
    void successDependenciesInTheSameJobAreBatchTaskDependencies() {
        SubmitOptions options = SubmitOptions.withKey("step-b").dependingOn(JobDependency.afterSuccess(ref(JOB,
                "step-a")), JobDependency.afterSuccess(ref(JOB, "step-0")));
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, render(QUICKSTART, options, List.of())).task();
        assertEquals(List.of("step-a", "step-0"), task.dependsOn().taskIds());
        assertEquals("PT36H", WireJson.read("\"PT36H\"", org.joda.time.Period.class).toString());
        assertEquals(org.joda.time.Period.hours(36), task.constraints().retentionTime());
    }

    @Test
    void dependenciesBatchCannotCarryAreHeldByGantry() {
        JobDependency otherPool = JobDependency.afterSuccess(ref("gantry-nc24-0123456789ab", "train"));
        JobDependency anyEnd = JobDependency.afterAny(ref(JOB, "cleanup-before"));
        JobDependency sameJob = JobDependency.afterSuccess(ref(JOB, "step-a"));
        TaskBody.Hold hold = assertInstanceOf(TaskBody.Hold.class, render(QUICKSTART, SubmitOptions.withKey("s")
                .dependingOn(otherPool, anyEnd, sameJob), List.of()));
        assertEquals(List.of(otherPool, anyEnd), hold.waitFor());
    }

    @Test
    void aDependencyListOverBatchsLimitIsHeld() {
        List<JobDependency> many = new ArrayList<>();
        for (int i = 0; i < 1100; i++) {
            many.add(JobDependency.afterSuccess(ref(JOB, String.format("%060d", i))));
        }
        TaskBody.Hold hold = assertInstanceOf(TaskBody.Hold.class, render(QUICKSTART, SubmitOptions.withKey("s")
                .dependingOn(many), List.of()));
        assertEquals(many, hold.waitFor());
        assertTrue(hold.reason().contains("66000 characters, over Batch's 64000"), hold.reason());
    }

    @Test
    void theTaskIdIsTheKeyMadeIntoABatchId() {
        assertEquals("step-1", TaskBody.taskId(SubmitOptions.withKey("step-1")));
        String long_ = TaskBody.taskId(SubmitOptions.withKey("Run.2024-06-01." + "x".repeat(100)));
        assertTrue(long_.length() <= 64 && long_.matches("[a-z0-9_-]+"), long_);
        assertTrue(!TaskBody.taskId(SubmitOptions.withKey("A")).equals(TaskBody.taskId(SubmitOptions.withKey("a"))),
                "keys differing in case never meet as one id");
    }

    @Test
    void containerRunOptionsAreTokensAndWorkloadVariablesNeverOverrideTheContract() {
        Plan plan = ExamplePlans.visionTraining().plan();
        plan = plan.withWorkload(plan.workload().toBuilder().env("WORLD_SIZE", "99").env("RANK", "7").build());
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, render(plan, SubmitOptions.withKey("v"),
                List.of("--device", "/dev/kfd", "--group-add", "video"))).task();
        assertEquals("--device /dev/kfd --group-add video", task.containerSettings().containerRunOptions());
        List<EnvironmentSetting> worldSizes = task.environmentSettings().stream()
                .filter(s -> s.name().equals("WORLD_SIZE")).toList();
        assertEquals(1, worldSizes.size());
        assertEquals("1", worldSizes.get(0).value());
        assertTrue(task.environmentSettings().stream().noneMatch(s -> s.name().equals("RANK")));
        assertNull(task.resourceFiles(), "no secrets, no resource file");
        assertThrows(IllegalArgumentException.class, () -> render(ExamplePlans.visionTraining().plan(),
                SubmitOptions.withKey("v"), List.of("--security-opt seccomp=unconfined")));
    }

    @Test
    void anInfiniBandPlanAsTheJobServiceHandsItOverGivesTheTaskItsNcclEnvironmentAndTheWorkloadsOwnValue() {
        Plan planned = ExamplePlans.llmFinetune().plan();
        Plan plan = FabricEnvironment.applyTo(planned.withWorkload(planned.workload().toBuilder()
                .env("NCCL_SOCKET_IFNAME", "ib0").build()));
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, render(plan, SubmitOptions.withKey("f"),
                List.of())).task();
        Map<String, String> env = new LinkedHashMap<>();
        task.environmentSettings().forEach(setting -> assertNull(env.put(setting.name(), setting.value()),
                "set once: " + setting.name()));
        Map<String, String> expected = new LinkedHashMap<>(FabricEnvironment.of(ExamplePlans.ND_A100));
        expected.put("NCCL_SOCKET_IFNAME", "ib0");
        expected.forEach((name, value) -> assertEquals(value, env.get(name), name));
        assertEquals("/opt/microsoft/ndv4-topo.xml", env.get("NCCL_TOPO_FILE"));
    }
}
