package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.Architecture;
import dev.gantry.api.FabricCheck;
import dev.gantry.api.GpuSpec;
import dev.gantry.api.GpuVendor;
import dev.gantry.api.Phase;
import dev.gantry.api.Plan;
import dev.gantry.api.VmSize;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The start checks' script run for real by /bin/sh, with stand-ins for nvidia-smi and all_reduce_perf on the PATH
 * that print what the real tools print; and the all_reduce_perf parser on published output.
 */
class StartChecksScriptTest {
    private static final VmSize TWO_GPUS = new VmSize("Standard_NC48ads_A100_v4", "NC", 48, 440,
            Optional.of(new GpuSpec("A100", 2, 80, GpuVendor.NVIDIA)), false, Architecture.X64, Set.of("V2"));
    private static final String RESOURCES = "/dev/gantry/api/backend/all-reduce-perf/";

    @TempDir
    Path tools;

    record Run(int exit, String stdout, String stderr) {
    }

    /** The plan's argv with the command replaced by one that prints each argument in brackets. */
    private Run run(Plan plan, Map<String, String> env) throws Exception {
        List<String> argv = new ArrayList<>(StartChecks.command(plan));
        argv.subList(argv.indexOf("--") + 1, argv.size()).clear();
        argv.addAll(List.of("sh", "-c", "for a; do printf \"[%s]\" \"$a\"; done", "printer"));
        argv.addAll(StartChecksTest.ARGV);
        ProcessBuilder builder = new ProcessBuilder(argv);
        builder.environment().put("PATH", tools + ":/usr/bin:/bin");
        builder.environment().put("RANK", "1");
        builder.environment().put("WORLD_SIZE", "2");
        builder.environment().putAll(env);
        Process process = builder.start();
        process.getOutputStream().close();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        String err = new String(process.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(process.waitFor(30, TimeUnit.SECONDS));
        return new Run(process.exitValue(), out, err);
    }

    private void tool(String name, String script) throws IOException {
        Path file = tools.resolve(name);
        Files.writeString(file, "#!/bin/sh\n" + script);
        Files.setPosixFilePermissions(file, PosixFilePermissions.fromString("rwxr-xr-x"));
    }

    /** nvidia-smi as it answers the three queries of the node check: GPUs, SRAM ECC errors, remapped rows. */
    private void nvidiaSmi(String indexes, String sram, String rows) throws IOException {
        tool("nvidia-smi", "case \"$*\" in\n  *remapped_rows*) printf \"" + rows + "\";;\n"
                + "  *ecc.errors*) printf \"" + sram + "\";;\n"
                + "  *) printf \"" + indexes + "\";;\nesac\n");
    }

    private static String printed() {
        StringBuilder text = new StringBuilder();
        StartChecksTest.ARGV.forEach(a -> text.append('[').append(a).append(']'));
        return text.toString();
    }

    private static Plan gpus() {
        return StartChecksTest.plan(TWO_GPUS, Phase.TRAINING, 2, null);
    }

    @Test
    void aHealthyNodeRunsTheCommandWithItsArgvVerbatimAndPrintsNothing() throws Exception {
        nvidiaSmi("0\\n1\\n", "0, 0\\n1, [N/A]\\n", "0, 0\\n0, 0\\n");
        Run run = run(gpus(), Map.of());
        assertEquals(0, run.exit(), run.stderr());
        assertEquals(printed(), run.stdout());
        assertEquals("", run.stderr(), "a healthy node prints nothing: the job's output is its own");
    }

    @Test
    void aNodeShortOfGpusNamesItselfAndNeverStartsTheCommand() throws Exception {
        nvidiaSmi("0\\n", "0, 0\\n", "0, 0\\n");
        Run run = run(gpus(), Map.of());
        assertEquals(StartChecks.FAILED_EXIT, run.exit());
        assertEquals("", run.stdout());
        assertTrue(run.stderr().matches("(?s)gantry node check FAILED on .+ \\(rank 1\\): gpu\\.count: found 1 NVIDIA "
                + "GPU\\(s\\), needed 2; .*the job's command did not start.*"), run.stderr());
    }

    @Test
    void memoryErrorsAndAMissingDriverFailTheNode() throws Exception {
        nvidiaSmi("0\\n1\\n", "0, 3\\n1, 0\\n", "0, 0\\n1, 0\\n");
        Run errors = run(gpus(), Map.of());
        assertEquals(StartChecks.FAILED_EXIT, errors.exit());
        assertTrue(errors.stderr().contains("gpu.memory: GPU 0 has 3 uncorrectable SRAM ECC error(s); GPU 1 has a row "
                + "remapping pending (reset the GPU or restart the VM);"), errors.stderr());
        nvidiaSmi("0\\n1\\n", "0, 0\\n1, 0\\n", "0, Yes\\n0, 0\\n");
        Run failedRemap = run(gpus(), Map.of());
        assertTrue(failedRemap.stderr().contains("gpu.memory: GPU 0 failed a row remapping (the GPU needs replacing: "
                + "redeploy the VM)"), failedRemap.stderr());
        tool("nvidia-smi", "case \"$*\" in\n  *--query-gpu=index,ecc*|*remapped*) echo \"Field is not a valid field to query.\""
                + " >&2; exit 2;;\n  *) printf \"0\\n1\\n\";;\nesac\n");
        Run older = run(gpus(), Map.of());
        assertEquals(0, older.exit(), "a driver without the memory queries reports none: " + older.stderr());
        Files.delete(tools.resolve("nvidia-smi"));
        Run driver = run(gpus(), Map.of());
        assertEquals(StartChecks.FAILED_EXIT, driver.exit());
        assertTrue(driver.stderr().contains("gpu.driver: nvidia-smi is not installed"), driver.stderr());
    }

    @Test
    void anRdmaSizeWithoutAnActiveInfiniBandPortFails() throws Exception {
        // This machine has no InfiniBand device, as a VM without the HPC image's drivers has none.
        assertTrue(!Files.exists(Path.of("/sys/class/infiniband")) || Files.list(Path.of("/sys/class/infiniband"))
                .findAny().isEmpty(), "the test expects a machine without RDMA devices");
        nvidiaSmi("0\\n1\\n2\\n3\\n4\\n5\\n6\\n7\\n", "", "");
        Run run = run(StartChecksTest.plan(StartChecksTest.H100, Phase.INFERENCE, 2, null), Map.of());
        assertEquals(StartChecks.FAILED_EXIT, run.exit());
        assertTrue(run.stderr().contains("infiniband: no InfiniBand port is ACTIVE (found: no RDMA device;) on an "
                + "RDMA size"), run.stderr());
    }

    @Test
    void allReducePerfUnderMpiDecidesTheFabricCheck() throws Exception {
        Path published = tools.resolve("published.txt");
        try (InputStream in = resource("azure-ai-infrastructure-nccl-test.txt")) {
            Files.write(published, in.readAllBytes());
        }
        tool("all_reduce_perf", "cat '" + published + "'\n");
        Run pass = run(StartChecksTest.plan(StartChecksTest.CPU, Phase.TRAINING, 2,
                FabricCheck.withFloor(900, 16384)), Map.of("PMI_SIZE", "2"));
        assertEquals(0, pass.exit(), pass.stderr());
        assertEquals(printed(), pass.stdout());
        assertTrue(pass.stderr().contains("gantry fabric check: passed on "), pass.stderr());
        assertTrue(pass.stderr().contains("all-reduce bus bandwidth 936.93 GB/s, expected at least 900 GB/s for "
                + "Standard_D4s_v5 (the workload's fabricCheck.minBusBandwidthGBps); 17179869184 bytes, 2 nodes, "
                + "nccl-tests all_reduce_perf"), pass.stderr());

        Run fail = run(StartChecksTest.plan(StartChecksTest.CPU, Phase.TRAINING, 2,
                FabricCheck.withFloor(1000, 16384)), Map.of("PMI_SIZE", "2"));
        assertEquals(StartChecks.FAILED_EXIT, fail.exit());
        assertEquals("", fail.stdout());
        assertTrue(fail.stderr().contains("gantry fabric check FAILED on "), fail.stderr());
        assertTrue(fail.stderr().contains("all-reduce bus bandwidth 936.93 GB/s, expected at least 1000 GB/s"),
                fail.stderr());
        assertTrue(fail.stderr().contains("Likely causes: InfiniBand ports down (ibv_devinfo shows no PORT_ACTIVE); "
                + "VMs outside one placement group"), fail.stderr());
    }

    @Test
    void theParserReadsPublishedOutputAsGolden() throws Exception {
        for (String name : List.of("azure-ai-infrastructure-nccl-test", "gist-cswinter-v100-sockets")) {
            String expected;
            try (InputStream in = resource(name + ".expected")) {
                expected = new String(in.readAllBytes(), StandardCharsets.UTF_8);
            }
            try (InputStream in = resource(name + ".txt")) {
                assertEquals(expected, parse(in.readAllBytes()), name);
            }
        }
    }

    @Test
    void theParserReadsRowsThatSrunPrefixedWithTheirRankAndRefusesOutputWithoutRows() throws Exception {
        assertEquals("busbw 476.72 bytes 8589934592\n", parse(("0: # size count type redop root time algbw busbw\n"
                + "0:   8589934592    2147483648     float     sum      -1    31533  272.41  476.72      0    31441"
                + "  273.20  478.11      0\n").getBytes(StandardCharsets.UTF_8)));
        assertEquals("exit 1", parse("NCCL failure common.cu:1279 'unhandled system error'\n"
                .getBytes(StandardCharsets.UTF_8)));
    }

    private static InputStream resource(String name) {
        return StartChecksScriptTest.class.getResourceAsStream(RESOURCES + name);
    }

    private static String parse(byte[] output) throws Exception {
        Process awk = new ProcessBuilder("awk", StartChecks.allReducePerfParser()).start();
        awk.getOutputStream().write(output);
        awk.getOutputStream().close();
        String out = new String(awk.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertTrue(awk.waitFor(10, TimeUnit.SECONDS));
        return awk.exitValue() == 0 ? out : "exit " + awk.exitValue();
    }
}
