package dev.gantry.hosts;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.probe.HostFacts;
import dev.gantry.hosts.probe.ProbeReport;
import dev.gantry.hosts.probe.ProbeScript;
import dev.gantry.ssh.RemoteResult;
import dev.gantry.ssh.ShellQuoting;
import dev.gantry.ssh.SshPool;
import dev.gantry.ssh.SshTarget;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import java.util.OptionalLong;
import java.util.concurrent.atomic.AtomicLong;

/**
 * A host reached over SSH. Every operation is one remote command: a fixed {@code sh -c} script whose inputs are its
 * positional parameters, turned into one command line by {@link ShellQuoting} inside {@link SshPool}, so no path or
 * user value is ever part of shell text. Environment values travel on the launch command's stdin into a 0600 file ({@link dev.gantry.hosts.jobs.JobLauncher})
 * that the job's loader sources and deletes before anything else runs; they never appear on a command line.
 */
public final class SshHost implements Host {
    /** Clock skew allowed between the wrapper's {@code started} stamp (whole seconds) and the kernel's start time. */
    private static final Duration START_SLACK = Duration.ofSeconds(2);

    private static final String GROUP_ALIVE = """
            for s in /proc/[0-9]*/stat; do
              read -r line < "$s" 2>/dev/null || continue
              set -f; set -- $1 ${line##*) }; set +f
              [ "$4" = "$1" ] && [ "$2" != Z ] && exit 0
            done
            exit 1
            """;

    private static final String PROCESS = """
            read -r line < "/proc/$1/stat" 2>/dev/null || exit 1
            set -f; set -- ${line##*) }; set +f
            state=$1; shift 19; start=$1
            while read -r k v; do [ "$k" = btime ] && btime=$v; done < /proc/stat
            echo "$state $start $btime $(getconf CLK_TCK)"
            """;

    private final String name;
    private final SshTarget target;
    private final String addressSetting;
    private final String workDir;
    private final OptionalInt gpus;
    private final SshPool pool;
    private final Duration timeout;
    private final AtomicLong commands = new AtomicLong();
    private volatile MachineFacts facts;

    /**
     * @param name the name messages and job records use
     * @param target how to reach and trust the host
     * @param addressSetting the backend's setting that holds the host's address, as {@code gantry.yaml} spells it
     *     (e.g. {@code backends.cyclecloud.address}, with its {@code gantry.yaml:LINE:COL} when known): named when the
     *     host cannot be reached, so the message says what to fix
     * @param workDir the directory on the host that holds one directory per job
     * @param gpus GPUs to schedule on it when set explicitly; empty: counted with the probe
     * @param timeout the limit of each of the host's file and process commands
     */
    public SshHost(String name, SshTarget target, String addressSetting, String workDir, OptionalInt gpus,
                   SshPool pool, Duration timeout) {
        this.name = Objects.requireNonNull(name, "name");
        this.target = Objects.requireNonNull(target, "target");
        this.addressSetting = Objects.requireNonNull(addressSetting, "addressSetting");
        this.workDir = Objects.requireNonNull(workDir, "workDir");
        this.gpus = Objects.requireNonNull(gpus, "gpus");
        this.pool = Objects.requireNonNull(pool, "pool");
        this.timeout = Objects.requireNonNull(timeout, "timeout");
    }

    public SshTarget target() {
        return target;
    }

    /** The directory on the host that holds one directory per job. */
    public String workDir() {
        return workDir;
    }

    /** Remote commands this host has run so far: what the one-command-per-poll promise is measured with. */
    @Override
    public OptionalLong commands() {
        return OptionalLong.of(commands.get());
    }

    @Override
    public RemoteResult exec(List<String> argv, Optional<byte[]> stdin, Duration limit) {
        commands.incrementAndGet();
        try {
            return pool.exec(target, argv, stdin, limit);
        } catch (GantryException e) {
            if (e.code() != ErrorCode.BACKEND_UNAVAILABLE) {
                throw e;
            }
            throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "host " + name + " (" + addressSetting
                    + ") cannot be reached: " + e.getMessage() + "; retry when it is back, or fix the address", e);
        }
    }

    @Override
    public String name() {
        return name;
    }

    @Override
    public boolean isDirectory(String path) {
        return script("[ -d \"$1\" ]", path).succeeded();
    }

    @Override
    public boolean exists(String path) {
        return script("[ -e \"$1\" ]", path).succeeded();
    }

    @Override
    public boolean createDirectory(String path) {
        // A directory right under / has an empty parent, which mkdir -p refuses.
        RemoteResult r = script("p=\"${1%/*}\"; [ -z \"$p\" ] || mkdir -p -- \"$p\" || exit 2; "
                + "mkdir -- \"$1\" 2>/dev/null && exit 0; [ -d \"$1\" ] && exit 1; exit 2", path);
        return switch (r.exitCode()) {
            case 0 -> true;
            case 1 -> false;
            default -> throw failed("create directory " + path, r);
        };
    }

    @Override
    public Optional<String> readText(String path) {
        RemoteResult r = script("[ -f \"$1\" ] || exit 3; exec cat -- \"$1\"", path);
        if (r.exitCode() == 3) {
            return Optional.empty();
        }
        if (!r.succeeded()) {
            throw failed("read " + path, r);
        }
        return Optional.of(r.stdoutText());
    }

    @Override
    public void writeAtomically(String path, String text) {
        RemoteResult r = exec(List.of("sh", "-c", "cat > \"$1.tmp.$$\" && mv -f \"$1.tmp.$$\" \"$1\"", "sh", path),
                Optional.of(text.getBytes(StandardCharsets.UTF_8)));
        if (!r.succeeded()) {
            throw failed("write " + path, r);
        }
    }

    /** Created under umask 077 and renamed into place: never readable by others, not even for a moment. */
    @Override
    public void writePrivate(String path, String text) {
        RemoteResult r = exec(List.of("sh", "-c", "umask 077 && cat > \"$1.tmp.$$\" && mv -f \"$1.tmp.$$\" \"$1\"",
                "sh", path), Optional.of(text.getBytes(StandardCharsets.UTF_8)));
        if (!r.succeeded()) {
            throw failed("write " + path, r);
        }
    }

    @Override
    public void delete(String path) {
        RemoteResult r = script("rm -f -- \"$1\"", path);
        if (!r.succeeded()) {
            throw failed("delete " + path, r);
        }
    }

    @Override
    public byte[] readFrom(String path, long offset) {
        RemoteResult r = script("[ -f \"$1\" ] || exit 0; exec tail -c \"+$2\" -- \"$1\"", path,
                Long.toString(offset + 1));
        if (!r.succeeded()) {
            throw failed("read " + path, r);
        }
        return r.stdout();
    }

    @Override
    public boolean isAlive(long pid, Optional<Instant> startedAt) {
        RemoteResult r = script(PROCESS, Long.toString(pid));
        if (!r.succeeded()) {
            return false;
        }
        String[] f = r.stdoutText().strip().split(" ");
        if (f[0].startsWith("Z")) {
            return false; // ended, not yet reaped
        }
        if (f.length < 4 || startedAt.isEmpty()) {
            return true;
        }
        try {
            long startTicks = Long.parseLong(f[1]);
            long bootSeconds = Long.parseLong(f[2]);
            long ticksPerSecond = Long.parseLong(f[3]);
            Instant processStart = Instant.ofEpochSecond(bootSeconds).plusMillis(startTicks * 1000 / ticksPerSecond);
            return !processStart.isAfter(startedAt.get().plus(START_SLACK));
        } catch (NumberFormatException e) {
            return true;
        }
    }

    @Override
    public boolean signalGroup(long pgid, String signal) {
        if (pgid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + pgid);
        }
        if (!signal.matches("[A-Z]+|0")) {
            throw new IllegalArgumentException("not a signal name: " + signal);
        }
        return script("kill -s \"$1\" -- \"-$2\" 2>/dev/null", signal.equals("0") ? "0" : signal,
                Long.toString(pgid)).succeeded();
    }

    @Override
    public boolean groupAlive(long pgid) {
        return script(GROUP_ALIVE, Long.toString(pgid)).succeeded();
    }

    /** CPUs, memory and GPUs from one run of the probe script, cached; a {@code gpus} setting overrides the count. */
    @Override
    public MachineFacts facts() {
        MachineFacts known = facts;
        if (known == null) {
            HostFacts probed = probe();
            int gpuCount = gpus.orElse(probed.gpus().size());
            known = new MachineFacts(probed.cpus().orElse(1),
                    probed.memoryGib().isPresent() ? OptionalDouble.of(probed.memoryGib().getAsDouble())
                            : OptionalDouble.empty(), gpuCount);
            facts = known;
        }
        return known;
    }

    /** Runs the probe script once and parses what it found. */
    public HostFacts probe() {
        return ProbeReport.parse(run(ProbeScript.argv(workDir), Duration.ofSeconds(ProbeScript.TIMEOUT_SECONDS * 3L)),
                workDir);
    }

    @Override
    public String run(List<String> argv, Duration limit) {
        return exec(argv, Optional.empty(), limit).stdoutText();
    }

    @Override
    public List<String> list(String directory) {
        RemoteResult r = script("cd -- \"$1\" 2>/dev/null || exit 0; for d in */; do [ -d \"$d\" ] && "
                + "printf '%s\\n' \"${d%/}\"; done; exit 0", directory);
        return r.stdoutText().lines().filter(s -> !s.isEmpty()).toList();
    }

    private RemoteResult script(String text, String... args) {
        List<String> argv = new ArrayList<>(List.of("sh", "-c", text, "sh"));
        argv.addAll(List.of(args));
        return exec(argv, Optional.empty());
    }

    private RemoteResult exec(List<String> argv, Optional<byte[]> stdin) {
        return exec(argv, stdin, timeout);
    }

    private GantryException failed(String what, RemoteResult r) {
        return new GantryException(ErrorCode.REMOTE_ERROR, "could not " + what + " on " + name() + " ("
                + target.address() + "): exit " + r.exitCode()
                + (r.stderrText().isBlank() ? "" : ", " + r.stderrText().strip()));
    }
}
