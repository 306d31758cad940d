package dev.gantry.backend.manual.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.GpuVendor;
import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Capabilities;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.manual.internal.settings.ManualSettings;
import dev.gantry.hosts.LocalHost;
import dev.gantry.hosts.internal.ProcStat;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/** Both ways of starting a new session put the job in its own process group, apart from ours. */
class SessionLeaderTest {
    static Stream<String> leaders() {
        assertTrue(LocalHost.onPath("setsid").isPresent() && LocalHost.onPath("perl").isPresent(),
                "this machine has both ways, so both are tested");
        return Stream.of("setsid", "perl");
    }

    @ParameterizedTest
    @MethodSource("leaders")
    void jobRunsInItsOwnProcessGroup(String leader) throws Exception {
        try (TckContext context = TckContext.create()) {
            Path workDir = context.stateDirectory().resolve("jobs");
            ManualBackend backend = new ManualBackend(new LocalHost(leader),
                    ManualSettings.local(workDir, Duration.ofSeconds(1)), context,
                    new Capabilities(false, false, true, false, true, Set.of(GpuVendor.NVIDIA)));
            Workload w = Workload.builder("leader").phase(Phase.TRAINING).model(ModelClass.SMALL)
                    .command("sh", "-c", "cat /proc/$$/stat").build();
            JobRef job = backend.submit(Plan.builder(w, BackendFixture.smallCpuSize()).build(),
                    SubmitOptions.withKey("leader"));
            long deadline = System.nanoTime() + Duration.ofSeconds(10).toNanos();
            JobStatus status = backend.status(job);
            while (!status.state().isTerminal()) {
                if (System.nanoTime() > deadline) {
                    fail("job did not end: " + status);
                }
                Thread.sleep(20);
                status = backend.status(job);
            }
            assertEquals(JobState.SUCCEEDED, status.state(), status.message());
            List<String> out = new ArrayList<>();
            backend.logs(job, LogOptions.all(), line -> out.add(line.text()));
            ProcStat jobStat = ProcStat.parse(out.get(0)).orElseThrow();
            long pgid = Long.parseLong(Files.readString(workDir.resolve("job-leader").resolve("pgid")).strip());
            assertEquals(pgid, jobStat.processGroup(), "the command runs in the group the wrapper recorded");
            ProcStat ours = ProcStat.parse(Files.readString(Path.of("/proc/self/stat"))).orElseThrow();
            assertNotEquals(ours.processGroup(), jobStat.processGroup(), "the job must not share our process group");
            assertTrue(pgid > 1);
        }
    }
}
