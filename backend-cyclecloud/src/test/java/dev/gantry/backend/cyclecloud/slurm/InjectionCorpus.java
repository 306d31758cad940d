package dev.gantry.backend.cyclecloud.slurm;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gantry.api.ModelClass;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.Workload;
import dev.gantry.api.backend.Backend;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.JobRef;
import dev.gantry.api.backend.JobState;
import dev.gantry.api.backend.JobStatus;
import dev.gantry.api.backend.LogLine;
import dev.gantry.api.backend.LogOptions;
import dev.gantry.api.backend.SubmitOptions;
import dev.gantry.backend.cyclecloud.CycleCloudBackendProvider;
import dev.gantry.tck.BackendFixture;
import dev.gantry.tck.TckContext;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.OptionalInt;
import java.util.UUID;

/**
 * The shell-injection corpus, run through a real scheduler: a job whose arguments and environment values would each
 * run a command (create a marker file) if any shell on the way read them as code, or change the job if its
 * scheduler read them as directives. It must succeed, print every one of them byte for byte, and leave no marker.
 */
public final class InjectionCorpus {
    private InjectionCorpus() {
    }

    /** Submits the corpus with these backend settings and checks what arrived and that nothing ran. */
    public static void runThrough(TestCluster cluster, Map<String, String> settings) throws Exception {

        Path markers = Path.of(cluster.sharedDirectory(), "injection-" + UUID.randomUUID());
        List<String> corpus = corpus(markers.toString());
        Map<String, String> env = new LinkedHashMap<>();
        for (int i = 0; i < corpus.size(); i++) {
            env.put("INJECT_" + i, corpus.get(i));
        }
        List<String> argv = new ArrayList<>(List.of("sh", "-c", "printf '<%s>\\n' \"$@\"; env | grep '^INJECT_' | "
                + "sort -t_ -k2 -n >/dev/null; for v in $(seq 0 " + (corpus.size() - 1) + "); do eval \"printf "
                + "'[%s]\\\\n' \\\"\\$INJECT_$v\\\"\"; done", "sh"));
        argv.addAll(corpus);
        Workload workload = Workload.builder("inject").phase(Phase.TRAINING).model(ModelClass.SMALL).command(argv)
                .env(env).build();
        try (TckContext context = TckContext.create();
             Backend backend = new CycleCloudBackendProvider().create(new BackendConfig("cyclecloud",
                     settings), context)) {
            JobRef job = backend.submit(Plan.builder(workload, BackendFixture.smallCpuSize()).build(),
                    SubmitOptions.withKey("inject-" + UUID.randomUUID()));
            JobStatus status = ClusterTesting.awaitEnd(backend, job);
            assertEquals(JobState.SUCCEEDED, status.state(), status.toString());
            List<String> out = new ArrayList<>();
            backend.logs(job, new LogOptions(false, OptionalInt.empty(), true, false), l -> {
                if (l.stream() == LogLine.Stream.STDOUT) {
                    out.add(l.text());
                }
            });
            StringBuilder expected = new StringBuilder();
            corpus.forEach(a -> expected.append('<').append(a).append(">\n"));
            corpus.forEach(a -> expected.append('[').append(a).append("]\n"));
            assertEquals(expected.toString(), String.join("\n", out) + "\n",
                    "every argument and value, byte for byte (" + StandardCharsets.UTF_8 + ")");
        }
        for (int i = 0; i < 12; i++) {
            assertFalse(Files.exists(markers.resolve("ran-" + i)), "an injected command ran: ran-" + i);
        }
    }

    /** Each entry would create {@code ran-N} under the markers directory if a shell interpreted it. */
    private static List<String> corpus(String dir) {
        String m = dir + "/ran-";
        return List.of("$(mkdir -p " + dir + "; touch " + m + "0)", "`mkdir -p " + dir + "; touch " + m + "1`",
                "x; mkdir -p " + dir + "; touch " + m + "2", "x && mkdir -p " + dir + " && touch " + m + "3",
                "x | mkdir -p " + dir + " | touch " + m + "4", "'; mkdir -p " + dir + "; touch " + m + "5; '",
                "\"; mkdir -p " + dir + "; touch " + m + "6; \"", "line\nmkdir -p " + dir + "; touch " + m + "7",
                "${IFS}$(mkdir${IFS}-p${IFS}" + dir + ")$(touch${IFS}" + m + "8)", "*", "?", "[a-z]*", "-n",
                "--export=ALL", "", "  two  spaces  ", "héllo wörld ✓ 日本", "back\\slash\\", "tab\there",
                "#not-a-comment", "a>" + m + "9", "<" + m + "10", "!bang", "%s %d %%", "~root", "$HOME",
                "\\$(touch " + m + "11)",
                // Directives a scheduler would read on a line of its own: qsub reads #$ lines anywhere in a script.
                "x\n#$ -q no.such.queue\n#$ -N hijacked", "x\n#SBATCH --partition=no-such-partition");
    }
}
