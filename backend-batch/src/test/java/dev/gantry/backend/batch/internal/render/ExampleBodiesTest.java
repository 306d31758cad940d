package dev.gantry.backend.batch.internal.render;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertInstanceOf;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.EnvironmentSetting;
import com.microsoft.azure.batch.protocol.models.PoolAddParameter;
import com.microsoft.azure.batch.protocol.models.TaskAddParameter;
import dev.gantry.api.backend.StartChecks;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.testing.GoldenFiles;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** The pool, job and task bodies of every example, as the SDK's serializer puts them on the wire. */
class ExampleBodiesTest {
    private static final GoldenFiles GOLDEN = GoldenFiles.in("golden/bodies");
    static final String ACCOUNT = "mlbatch";
    static final String PREFIX = "gantry-";
    static final String IDENTITY = "/subscriptions/00000000-0000-0000-0000-000000000000/resourceGroups/ml/providers/"
            + "Microsoft.ManagedIdentity/userAssignedIdentities/gantry-pools";
    private static final List<String> NO_RUN_OPTIONS = List.of();

    static List<ExamplePlans.Example> examples() {
        return ExamplePlans.all();
    }

    @ParameterizedTest
    @MethodSource("examples")
    void poolJobAndTaskBodiesMatchTheirGoldenFiles(ExamplePlans.Example example) {
        boolean secrets = !example.plan().workload().secrets().isEmpty();
        Optional<String> identity = secrets ? Optional.of(IDENTITY) : Optional.empty();
        PoolKey key = PoolKey.of(ACCOUNT, example.plan(), example.bootScript(), identity);
        String poolId = key.poolId(PREFIX);
        PoolAddParameter pool = PoolBody.render(key, poolId, example.plan(), example.bootScript(), 10);
        GOLDEN.assertMatches(example.name() + "-pool.json", WireJson.pretty(pool));
        GOLDEN.assertMatches(example.name() + "-job.json", WireJson.pretty(JobBody.render(key.jobId(PREFIX), poolId,
                key)));

        SubmitOptions options = new SubmitOptions("run-20240601." + example.name() + ".attempt-1");
        Optional<TaskBody.SecretsBlob> blob = secrets ? Optional.of(new TaskBody.SecretsBlob(
                "https://mlsecrets.blob.core.windows.net/gantry-secrets/" + TaskBody.taskId(options) + ".env",
                IDENTITY)) : Optional.empty();
        TaskBody.Result result = TaskBody.render(new TaskBody.Input(example.plan(), options, ACCOUNT,
                key.jobId(PREFIX), 29500, Duration.ofDays(7), NO_RUN_OPTIONS, blob));
        TaskAddParameter task = assertInstanceOf(TaskBody.Ready.class, result).task();
        GOLDEN.assertMatches(example.name() + "-task.json", WireJson.pretty(task));

        assertTrue(poolId.length() <= PoolKey.MAX_ID && poolId.matches("[a-z0-9_-]+"), poolId);
        assertFalse(task.commandLine().contains(example.plan().workload().command().get(0)),
                "no user value on the command line");
        Map<String, String> env = task.environmentSettings().stream()
                .collect(Collectors.toMap(EnvironmentSetting::name, EnvironmentSetting::value));
        // The argv the launcher rebuilds: the workload's, behind the start checks of a multi-node job.
        assertEquals(String.valueOf(StartChecks.command(example.plan()).size()), env.get(Launcher.ARGC));
        assertEquals(ACCOUNT + "." + key.jobId(PREFIX) + "." + task.id(), env.get("GANTRY_JOB_ID"));
        assertNull(env.get("RANK"), "per-node names are the launcher's");
        assertEquals(example.plan().nodes() > 1, task.multiInstanceSettings() != null);
        assertEquals(example.plan().workload().container().isPresent(), pool.virtualMachineConfiguration()
                .containerConfiguration() != null);
    }
}
