package dev.gantry.tck;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.backend.JobEnvironment;
import java.io.IOException;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The kit's shell programs, run here as a backend would run them: the contract printer, and the two-node rendezvous
 * both with python3 and with busybox's netcat alone (a minimal container image).
 */
class KitScriptsTest {
    @TempDir
    Path temp;

    @Test
    void theContractPrinterTellsEmptyFromUnset() throws Exception {
        ProcessBuilder builder = new ProcessBuilder(KitScripts.printContract());
        builder.environment().keySet().removeIf(name -> JobEnvironment.NAMES.contains(name));
        builder.environment().put(JobEnvironment.JOB_ID, "it's \"$(id)\"");
        builder.environment().put(JobEnvironment.RESUME, "");
        List<String> lines = run(builder);
        assertEquals(JobEnvironment.NAMES.size(), lines.size(), lines.toString());
        assertEquals("GANTRY_JOB_ID=it's \"$(id)\"", lines.get(0));
        assertEquals("GANTRY_ATTEMPT", lines.get(1), "unset: the name alone");
        assertEquals("GANTRY_RESUME=", lines.get(2), "set but empty");
    }

    @Test
    void twoRanksMeetWithPython() throws Exception {
        assertRendezvous(System.getenv("PATH"));
    }

    @Test
    void twoRanksMeetWithBusyboxNetcatAlone() throws Exception {
        Path bin = Files.createDirectories(temp.resolve("bin"));
        Path busybox = Path.of("/bin/busybox");
        assertTrue(Files.isExecutable(busybox), "busybox is needed (Debian package busybox-static; scripts/test-all.sh "
                + "installs it through scripts/setup-podman.sh)");
        for (String applet : List.of("sh", "nc", "sleep", "echo", "[", "test")) {
            Files.createSymbolicLink(bin.resolve(applet), busybox);
        }
        assertRendezvous(bin.toString());
    }

    private void assertRendezvous(String path) throws Exception {
        int port;
        try (ServerSocket free = new ServerSocket(0)) {
            port = free.getLocalPort();
        }
        List<Process> ranks = new ArrayList<>();
        for (int rank = 0; rank < 2; rank++) {
            ProcessBuilder builder = new ProcessBuilder(KitScripts.rendezvous()).redirectErrorStream(true);
            Map<String, String> env = builder.environment();
            env.put("PATH", path);
            env.put("MASTER_ADDR", "127.0.0.1");
            env.put("MASTER_PORT", Integer.toString(port));
            env.put("WORLD_SIZE", "2");
            env.put("NODE_RANK", Integer.toString(rank));
            env.put("RANK", Integer.toString(rank));
            env.put("LOCAL_RANK", "0");
            env.put("GANTRY_NODE_RANK", Integer.toString(rank));
            env.put("GANTRY_NUM_NODES", "2");
            ranks.add(builder.start());
        }
        List<String> rank0 = lines(ranks.get(0));
        List<String> rank1 = lines(ranks.get(1));
        assertEquals(List.of("contract rank=0 node_rank=0 gantry_node_rank=0 world=2 nodes=2 local_rank=0 master=127.0.0.1:"
                + port, "received: hello from rank 1 of 2"), rank0);
        assertEquals(List.of("contract rank=1 node_rank=1 gantry_node_rank=1 world=2 nodes=2 local_rank=0 master=127.0.0.1:"
                + port), rank1);
    }

    private static List<String> run(ProcessBuilder builder) throws IOException, InterruptedException {
        return lines(builder.redirectErrorStream(true).start());
    }

    private static List<String> lines(Process process) throws IOException, InterruptedException {
        assertTrue(process.waitFor(30, TimeUnit.SECONDS), "the script did not end");
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.exitValue(), out);
        return out.isEmpty() ? List.of() : List.of(out.split("\n"));
    }
}
