package dev.gantry.backend.cyclecloud.internal;

import dev.gantry.api.Scheduler;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Problem;
import dev.gantry.api.SourceLocation;
import dev.gantry.api.backend.BackendConfig;
import dev.gantry.api.backend.ConfigKey;
import dev.gantry.backend.cyclecloud.internal.slurm.SbatchDirectives;
import dev.gantry.ssh.ClientIdentity;
import dev.gantry.ssh.HostKeyPolicy;
import dev.gantry.ssh.SshTarget;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class CycleCloudSettingsTest {
    private static final String HOME = System.getProperty("user.home");
    private static final String FINGERPRINT = "SHA256:t1TmsEZS4vdjjS4sINzxFuOL7hEaKbSrbyEqQxX28p4";

    /** The least a login node needs: address, user, key, work directory. */
    private static Map<String, String> minimal() {
        Map<String, String> values = new HashMap<>();
        values.put("address", "login.example.com");
        values.put("user", "azureuser");
        values.put("identityFile", "~/.ssh/id_ed25519");
        values.put("workDir", "/shared/home/azureuser/gantry/");
        return values;
    }

    private static Map<String, String> minimalWith(String... keysAndValues) {
        Map<String, String> values = minimal();
        for (int i = 0; i < keysAndValues.length; i += 2) {
            if (keysAndValues[i + 1] == null) {
                values.remove(keysAndValues[i]);
            } else {
                values.put(keysAndValues[i], keysAndValues[i + 1]);
            }
        }
        return values;
    }

    private static CycleCloudSettings bind(Map<String, String> values) {
        return CycleCloudSettings.bind(new BackendConfig("cyclecloud", values));
    }

    /** Every problem binding reports, as users read them. */
    private static List<String> problems(Map<String, String> values) {
        GantryException e = assertThrows(GantryException.class, () -> bind(values));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        List<String> problems = e.problems().stream().map(Problem::toString).toList();
        assertEquals(String.join("\n", problems), e.getMessage());
        return problems;
    }

    @Test
    void everyProblemIsReportedAtOnceEachNamingItsKeyTheValueAndTheFix() {
        Map<String, String> values = new HashMap<>();
        values.put("acount", "ml-team");
        values.put("scheduler", "lsf");
        values.put("port", "70000");
        values.put("user", "azureuser");
        values.put("identityFile", "~/.ssh/id_ed25519");
        values.put("agent", "true");
        values.put("knownHosts", "/etc/ssh/ssh_known_hosts");
        values.put("insecureAcceptAnyHostKey", "true");
        values.put("partitions[0]", "Standard_D4s_v5");
        values.put("partitions[1]", "Standard_NC24ads_A100_v4=gpu");
        values.put("partitions[2]", "standard_nc24ads_a100_v4=gpu2");
        values.put("defaultPartition", "gpu partition");
        values.put("account", "ml team");
        values.put("qos", "high!");
        values.put("gpuRequest", "GRES");
        values.put("binDir", "opt/slurm/bin");
        values.put("jobCompLog", "/var/log/slurm/job\ncomp.log");
        values.put("masterPort", "0");
        assertEquals(List.of(
                "backends.cyclecloud.acount: unknown setting; did you mean 'account'?",
                "backends.cyclecloud.scheduler: must be one of slurm, gridengine, pbs, got 'lsf'",
                "backends.cyclecloud.address: is required: the host's DNS name or IP address",
                "backends.cyclecloud.port: must be a TCP port from 1 to 65535, got '70000'",
                "backends.cyclecloud.identityFile: and backends.cyclecloud.agent are both set; use one: a private key "
                        + "file, or agent: true for the keys in ssh-agent",
                "backends.cyclecloud.hostKeyFingerprint: give one way to trust the host's key: knownHosts, "
                        + "hostKeyFingerprint or insecureAcceptAnyHostKey (several are set)",
                "backends.cyclecloud.workDir: is required: the directory holding Gantry's job directories, on the "
                        + "file system the login node and every compute node share (on CycleCloud e.g. "
                        + "/shared/home/USER/gantry)",
                "backends.cyclecloud.partitions: 'Standard_D4s_v5' is not VMSIZE=PARTITION; write e.g. "
                        + "Standard_ND96asr_v4=gpu (partition names: letters, digits, '.', '_' and '-')",
                "backends.cyclecloud.partitions: lists standard_nc24ads_a100_v4 twice, for gpu and gpu2; keep one",
                "backends.cyclecloud.defaultPartition: 'gpu partition' is not a partition name; use letters, "
                        + "digits, '.', '_' and '-' (sinfo lists the partitions)",
                "backends.cyclecloud.account: 'ml team' is not a scheduler account name; use up to 64 letters, "
                        + "digits and ._@+- (as sacctmgr shows it)",
                "backends.cyclecloud.qos: 'high!' is not a scheduler qos name; use up to 64 letters, digits and "
                        + "._@+- (as sacctmgr shows it)",
                "backends.cyclecloud.gpuRequest: must be one of gpus-per-node, gres, got 'GRES'",
                "backends.cyclecloud.binDir: must be an absolute path on the cluster without control characters "
                        + "(tabs, line breaks), got 'opt/slurm/bin'",
                "backends.cyclecloud.jobCompLog: must be an absolute path on the cluster without control "
                        + "characters (tabs, line breaks), got '/var/log/slurm/job\ncomp.log'",
                "backends.cyclecloud.masterPort: must be a TCP port from 1 to 65535, got '0'"), problems(values));
    }

    @Test
    void aLeftOutKeyIsReportedWithTheOthersAtTheSectionThatShouldHoldIt() {
        SourceLocation section = new SourceLocation("gantry.yaml", 3, 5);
        Map<String, SourceLocation> at = Map.of("", section, "port", new SourceLocation("gantry.yaml", 4, 11),
                "gpuRequest", new SourceLocation("gantry.yaml", 5, 17));
        GantryException e = assertThrows(GantryException.class, () -> CycleCloudSettings.bind(new BackendConfig(
                "cyclecloud", Map.of("port", "ssh", "gpuRequest", "all"), at)));
        assertEquals(ErrorCode.CONFIG_INVALID, e.code());
        assertEquals(List.of(
                "gantry.yaml:3:5: backends.cyclecloud.address: is required: the host's DNS name or IP address",
                "gantry.yaml:4:11: backends.cyclecloud.port: must be a TCP port from 1 to 65535, got 'ssh'",
                "gantry.yaml:3:5: backends.cyclecloud.user: is required: the login user, e.g. azureuser",
                "gantry.yaml:3:5: backends.cyclecloud.identityFile: is required, or set agent: true to use the keys "
                        + "in ssh-agent",
                "gantry.yaml:3:5: backends.cyclecloud.workDir: is required: the directory holding Gantry's job "
                        + "directories, on the file system the login node and every compute node share (on "
                        + "CycleCloud e.g. /shared/home/USER/gantry)",
                "gantry.yaml:5:17: backends.cyclecloud.gpuRequest: must be one of gpus-per-node, gres, got 'all'"),
                e.problems().stream().map(Problem::toString).toList());
    }

    @Test
    void aLoginThatIsNotAHostNameStillHasItsOtherLoginProblemsReported() {
        assertEquals(List.of(
                "backends.cyclecloud.address: '-oProxyCommand=id' is not a host name or address; give e.g. "
                        + "10.0.0.4 or node1.example.com",
                "backends.cyclecloud.user: is required: the login user, e.g. azureuser"),
                problems(minimalWith("address", "-oProxyCommand=id", "user", null)));
    }

    @Test
    void aRelativeWorkDirIsRefusedAsAPathNotAsMissing() {
        assertEquals(List.of("backends.cyclecloud.workDir: must be an absolute path on the cluster without control "
                + "characters (tabs, line breaks), got 'gantry/jobs'"), problems(minimalWith("workDir",
                "gantry/jobs")));
    }

    @Test
    void aWorkDirWithATabInsideIsRefused() {
        assertEquals(List.of("backends.cyclecloud.workDir: must be an absolute path on the cluster without control "
                + "characters (tabs, line breaks), got '/shared/gan\ttry'"), problems(minimalWith("workDir",
                "/shared/gan\ttry")));
    }

    @Test
    void aBlankWorkDirIsMissingNotTheRootDirectory() {
        assertEquals(List.of("backends.cyclecloud.workDir: is required: the directory holding Gantry's job "
                + "directories, on the file system the login node and every compute node share (on CycleCloud e.g. "
                + "/shared/home/USER/gantry)"), problems(minimalWith("workDir", " \t ")));
    }

    @Test
    void aFingerprintThatIsNotSha256IsRefused() {
        assertEquals(List.of("backends.cyclecloud.hostKeyFingerprint: 'SHA256:short' is not a SHA-256 host key "
                + "fingerprint; give SHA256: and 43 base64 characters, as ssh-keygen -l -E sha256 -f KEY.pub prints "
                + "it (several: comma-separated)"), problems(minimalWith("hostKeyFingerprint", "SHA256:short")));
    }

    @Test
    void pbsIsKnownButNotRunnable() {
        assertEquals(List.of("backends.cyclecloud.scheduler: 'pbs' is not runnable in this version of Gantry: its "
                        + "scripts and parsers are rendered and tested, but never against a live PBS; use slurm or "
                        + "gridengine (docs/backends/cyclecloud.md)"),
                problems(minimalWith("scheduler", "pbs")));
    }

    @Test
    void gridEngineBindsItsParallelEnvironmentAndComplexes() {
        CycleCloudSettings settings = bind(minimalWith("scheduler", "gridengine", "parallelEnvironment", "smp",
                "gpuComplex", "gpus", "memoryComplex", "m_mem_free"));
        assertEquals(Scheduler.GRIDENGINE, settings.scheduler());
        assertEquals(List.of("smp", "gpus", "m_mem_free"), List.of(settings.parallelEnvironment(),
                settings.gpuComplex(), settings.memoryComplex()));
    }

    @Test
    void aSettingOfTheOtherSchedulerIsRefusedRatherThanIgnored() {
        assertEquals(List.of("backends.cyclecloud.qos: is a Slurm setting, and this cluster's scheduler is gridengine; "
                        + "remove it (or set scheduler to the cluster's)",
                "backends.cyclecloud.jobCompLog: is a Slurm setting, and this cluster's scheduler is gridengine; "
                        + "remove it (or set scheduler to the cluster's)"),
                problems(minimalWith("scheduler", "gridengine", "qos", "high", "jobCompLog", "/var/log/jobcomp")));
        assertEquals(List.of("backends.cyclecloud.parallelEnvironment: is a Grid Engine setting, and this cluster's "
                        + "scheduler is slurm; remove it (or set scheduler to the cluster's)"),
                problems(minimalWith("parallelEnvironment", "smp")));
    }

    @Test
    void theMultiNodeParallelEnvironmentIsOptionalAndOneWord() {
        assertEquals(Optional.empty(), bind(minimalWith("scheduler", "gridengine")).multiNodeParallelEnvironment());
        assertEquals(Optional.of("onepernode"), bind(minimalWith("scheduler", "gridengine",
                "multiNodeParallelEnvironment", " onepernode ")).multiNodeParallelEnvironment());
        assertEquals(List.of("backends.cyclecloud.multiNodeParallelEnvironment: 'one per node' is not a Grid Engine "
                        + "parallel environment name (qconf -spl lists them); use letters, digits and ._%+=,-"),
                problems(minimalWith("scheduler", "gridengine", "multiNodeParallelEnvironment", "one per node")));
        assertEquals(List.of("backends.cyclecloud.multiNodeParallelEnvironment: is a Grid Engine setting, and this "
                        + "cluster's scheduler is slurm; remove it (or set scheduler to the cluster's)"),
                problems(minimalWith("multiNodeParallelEnvironment", "onepernode")));
    }

    @Test
    void aGridEngineProjectIsOneWordQsubTakes() {
        assertEquals(List.of("backends.cyclecloud.account: 'ml@team' is not a Grid Engine project name (-P): use "
                        + "letters, digits and ._%+=,- (qconf -sprjl lists the projects)"),
                problems(minimalWith("scheduler", "gridengine", "account", "ml@team")));
    }

    @Test
    void gridEngineNamesThatAQsubLineCannotCarryAreRefused() {
        assertEquals(List.of("backends.cyclecloud.parallelEnvironment: 'smp slots' is not a Grid Engine parallel "
                        + "environment name (qconf -spl lists them); the default is smpslots",
                "backends.cyclecloud.gpuComplex: '1gpu' is not a Grid Engine complex name (qconf -sc lists them); "
                        + "the default is gpu"),
                problems(minimalWith("scheduler", "gridengine", "parallelEnvironment", "smp slots", "gpuComplex",
                        "1gpu")));
    }

    @Test
    void everySettingBindsToItsTypedValue() {
        CycleCloudSettings settings = bind(minimalWith("scheduler", "slurm", "port", "2222", "identityFile", null,
                "agent", "true", "hostKeyFingerprint", FINGERPRINT, "connectTimeout", "30s",
                "partitions", "Standard_ND96asr_v4=gpu, Standard_F4s_v2=htc", "defaultPartition", "hpc",
                "account", "ml-team", "qos", "high", "gpuRequest", "gres", "binDir", "/opt/slurm/bin/",
                "jobCompLog", "/var/log/slurm/jobcomp.log", "masterPort", "29600"));
        assertEquals(new SshTarget("login.example.com", 2222, "azureuser", ClientIdentity.agent(),
                HostKeyPolicy.pinned(FINGERPRINT), Duration.ofSeconds(30), Duration.ofSeconds(15)), settings.login());
        assertEquals(new PartitionMap(Map.of("standard_nd96asr_v4", "gpu", "standard_f4s_v2", "htc"),
                Optional.of("hpc")), settings.partitions());
        assertEquals(Optional.of("ml-team"), settings.account());
        assertEquals(Optional.of("high"), settings.qos());
        assertEquals(SbatchDirectives.GpuRequest.GRES, settings.gpuRequest());
        assertEquals(Optional.of("/opt/slurm/bin"), settings.binDir());
        assertEquals(Optional.of("/var/log/slurm/jobcomp.log"), settings.jobCompLog());
        assertEquals(29600, settings.masterPort());
    }

    @Test
    void acceptingAnyHostKeyIsFlaggedAsAnInsecureLogin() {
        CycleCloudSettings settings = bind(minimalWith("insecureAcceptAnyHostKey", "true"));
        assertTrue(settings.insecureLogin());
        assertEquals(HostKeyPolicy.INSECURE_ACCEPT_ANY_HOST_KEY, settings.login().hostKeyPolicy());
        assertFalse(bind(minimalWith("insecureAcceptAnyHostKey", "false")).insecureLogin());
    }

    @Test
    void theRequiredKeysAreDeclaredRequired() {
        assertEquals(List.of("address", "workDir"), CycleCloudSettings.KEYS.stream().filter(ConfigKey::required)
                .map(ConfigKey::name).toList());
    }
}
