package dev.gantry.hosts;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.api.Workload;
import dev.gantry.hosts.internal.MemInfo;
import dev.gantry.hosts.internal.ProcStat;
import dev.gantry.ssh.RemoteResult;
import java.io.File;
import java.io.FileNotFoundException;
import java.io.IOException;
import java.io.InputStream;
import java.io.RandomAccessFile;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.SeekableByteChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.AtomicMoveNotSupportedException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.Files;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/** The machine Gantry runs on. */
public final class LocalHost implements Host {
    private static final ExecutorService READERS = Executors.newCachedThreadPool(r -> {
        Thread t = new Thread(r, "gantry-local-command");
        t.setDaemon(true);
        return t;
    });
    private static final Set<PosixFilePermission> OWNER_ONLY = PosixFilePermissions.fromString("rw-------");
    /** Clock skew allowed between the wrapper's {@code started} stamp (whole seconds) and the kernel's start time. */
    private static final Duration START_SLACK = Duration.ofSeconds(2);

    private final String sessionLeader;
    private volatile MachineFacts facts;

    /** @param sessionLeader how jobs start a new session here: {@code setsid} or {@code perl} */
    public LocalHost(String sessionLeader) {
        if (!List.of("setsid", "perl").contains(sessionLeader)) {
            throw new IllegalArgumentException("a session leader is setsid or perl, not " + sessionLeader);
        }
        this.sessionLeader = sessionLeader;
    }

    /**
     * Finds how to start a new session here: util-linux {@code setsid}, else Perl's {@code POSIX::setsid} (macOS and
     * BSDs ship Perl but no setsid command).
     */
    public static LocalHost detect() {
        if (onPath("setsid").isPresent()) {
            return new LocalHost("setsid");
        }
        if (onPath("perl").isPresent()) {
            return new LocalHost("perl");
        }
        throw new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "running jobs on this machine needs "
                + "'setsid' (util-linux) or 'perl' on PATH to start jobs that outlive the CLI; neither was found in "
                + System.getenv("PATH") + "; install util-linux");
    }

    /** The first executable {@code program} in this process's PATH, as an absolute or PATH-relative path. */
    public static Optional<String> onPath(String program) {
        String path = System.getenv("PATH");
        if (path == null) {
            return Optional.empty();
        }
        for (String dir : path.split(File.pathSeparator)) {
            Path candidate = Path.of(dir.isEmpty() ? "." : dir, program);
            if (Files.isRegularFile(candidate) && Files.isExecutable(candidate)) {
                return Optional.of(candidate.toString());
            }
        }
        return Optional.empty();
    }

    @Override
    public String name() {
        return "local";
    }

    @Override
    public String sessionLeader() {
        return sessionLeader;
    }

    @Override
    public boolean isDirectory(String path) {
        return Files.isDirectory(Path.of(path));
    }

    @Override
    public boolean exists(String path) {
        return Files.exists(Path.of(path));
    }

    @Override
    public boolean createDirectory(String path) {
        Path dir = Path.of(path);
        try {
            Files.createDirectories(dir.getParent());
            Files.createDirectory(dir);
            return true;
        } catch (FileAlreadyExistsException e) {
            return false;
        } catch (IOException e) {
            throw io("create directory " + path, e);
        }
    }

    @Override
    public Optional<String> readText(String path) {
        try {
            return Optional.of(Files.readString(Path.of(path), StandardCharsets.UTF_8));
        } catch (NoSuchFileException e) {
            return Optional.empty();
        } catch (IOException e) {
            throw io("read " + path, e);
        }
    }

    @Override
    public void writeAtomically(String path, String text) {
        Path target = Path.of(path);
        Path temp = target.resolveSibling(target.getFileName() + ".tmp-" + ProcessHandle.current().pid() + "-"
                + Thread.currentThread().getId());
        try {
            Files.writeString(temp, text, StandardCharsets.UTF_8);
            try {
                Files.move(temp, target, StandardCopyOption.ATOMIC_MOVE, StandardCopyOption.REPLACE_EXISTING);
            } catch (AtomicMoveNotSupportedException e) {
                Files.move(temp, target, StandardCopyOption.REPLACE_EXISTING);
            }
        } catch (IOException e) {
            throw io("write " + path, e);
        }
    }

    @Override
    public void writePrivate(String path, String text) {
        Path target = Path.of(path);
        try {
            // CREATE_NEW with the permissions as an attribute: created 0600, never briefly readable by others.
            Files.deleteIfExists(target);
            try (SeekableByteChannel out = Files.newByteChannel(target, Set.of(StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE), PosixFilePermissions.asFileAttribute(OWNER_ONLY))) {
                ByteBuffer bytes = StandardCharsets.UTF_8.encode(text);
                while (bytes.hasRemaining()) {
                    out.write(bytes);
                }
            }
        } catch (IOException e) {
            throw io("write " + path, e);
        }
    }

    @Override
    public void delete(String path) {
        try {
            Files.deleteIfExists(Path.of(path));
        } catch (IOException e) {
            throw io("delete " + path, e);
        }
    }

    @Override
    public byte[] readFrom(String path, long offset) {
        // RandomAccessFile, not FileChannel: an interrupt (a follow being stopped) must not surface as an I/O error.
        try (RandomAccessFile file = new RandomAccessFile(path, "r")) {
            long size = file.length();
            if (size <= offset) {
                return new byte[0];
            }
            byte[] bytes = new byte[Math.toIntExact(Math.min(size - offset, Integer.MAX_VALUE - 8))];
            file.seek(offset);
            file.readFully(bytes);
            return bytes;
        } catch (FileNotFoundException e) {
            return new byte[0];
        } catch (IOException e) {
            throw io("read " + path, e);
        }
    }

    @Override
    public boolean isAlive(long pid, Optional<Instant> startedAt) {
        Optional<ProcessHandle> handle = ProcessHandle.of(pid);
        if (handle.isEmpty() || !handle.get().isAlive()) {
            return false;
        }
        if (procStat(pid).map(ProcStat::zombie).orElse(false)) {
            return false;
        }
        Optional<Instant> processStart = handle.get().info().startInstant();
        if (processStart.isEmpty() || startedAt.isEmpty()) {
            return true;
        }
        // Our wrapper wrote its start stamp after it began; a process that began later reused the id.
        return !processStart.get().isAfter(startedAt.get().plus(START_SLACK));
    }

    @Override
    public boolean signalGroup(long pgid, String signal) {
        if (pgid <= 1) {
            throw new IllegalArgumentException("refusing to signal process group " + pgid);
        }
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, "--", "-" + pgid)
                    .redirectErrorStream(true).redirectOutput(ProcessBuilder.Redirect.DISCARD).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS)) {
                kill.destroyForcibly();
                return true;
            }
            return kill.exitValue() == 0;
        } catch (IOException e) {
            throw io("signal process group " + pgid, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return true;
        }
    }

    @Override
    public boolean groupAlive(long pgid) {
        Path proc = Path.of("/proc");
        if (!Files.isReadable(proc.resolve("self").resolve("stat"))) {
            return signalGroup(pgid, "0"); // no procfs (macOS): zombies count as alive there, costing the grace
        }
        try (Stream<Path> entries = Files.list(proc)) {
            return entries.map(p -> p.getFileName().toString())
                    .filter(name -> !name.isEmpty() && name.chars().allMatch(Character::isDigit))
                    .map(name -> procStat(Long.parseLong(name)))
                    .anyMatch(stat -> stat.isPresent() && stat.get().processGroup() == pgid && !stat.get().zombie());
        } catch (IOException | UncheckedIOException e) {
            return signalGroup(pgid, "0");
        }
    }

    private static Optional<ProcStat> procStat(long pid) {
        try {
            return ProcStat.parse(Files.readString(Path.of("/proc", Long.toString(pid), "stat")));
        } catch (IOException | UncheckedIOException e) {
            return Optional.empty(); // gone meanwhile, or no procfs
        }
    }

    @Override
    public MachineFacts facts() {
        MachineFacts known = facts;
        if (known == null) {
            known = new MachineFacts(Runtime.getRuntime().availableProcessors(), memoryGib(), nvidiaGpus());
            facts = known;
        }
        return known;
    }

    @Override
    public List<String> list(String directory) {
        try (Stream<Path> entries = Files.list(Path.of(directory))) {
            List<String> names = new ArrayList<>();
            entries.filter(Files::isDirectory).forEach(p -> names.add(p.getFileName().toString()));
            return names;
        } catch (NoSuchFileException e) {
            return List.of();
        } catch (IOException e) {
            throw io("list " + directory, e);
        }
    }

    private static OptionalDouble memoryGib() {
        try (Stream<String> lines = Files.lines(Path.of("/proc/meminfo"))) {
            return MemInfo.totalGib(lines.toList());
        } catch (IOException | UncheckedIOException e) {
            return OptionalDouble.empty(); // not Linux: the memory check is skipped
        }
    }

    private static int nvidiaGpus() {
        if (onPath("nvidia-smi").isEmpty()) {
            return 0;
        }
        try {
            Process smi = new ProcessBuilder("nvidia-smi", "-L").redirectErrorStream(true).start();
            byte[] out;
            try (InputStream in = smi.getInputStream()) {
                out = in.readAllBytes();
            }
            if (!smi.waitFor(10, TimeUnit.SECONDS) || smi.exitValue() != 0) {
                return 0;
            }
            return countGpus(new String(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            return 0;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return 0;
        }
    }

    /** Counts the {@code GPU n: NAME (UUID: ...)} lines of {@code nvidia-smi -L}; MIG devices are indented lines. */
    static int countGpus(String nvidiaSmiList) {
        return (int) nvidiaSmiList.lines().filter(line -> line.startsWith("GPU ")).count();
    }

    private static GantryException io(String what, IOException e) {
        return new GantryException(ErrorCode.BACKEND_UNAVAILABLE, "this machine could not " + what + ": "
                + e.getMessage(), e);
    }

    /** Output only; the exit status is the probe's own business (its sections say what failed). */
    @Override
    public String run(List<String> argv, Duration timeout) {
        return exec(argv, Optional.empty(), timeout).stdoutText();
    }

    /**
     * A child of this process with its environment, less the GANTRY_ variables that would describe another job
     * (a job launched through it inherits what it has).
     */
    @Override
    public RemoteResult exec(List<String> argv, Optional<byte[]> stdin, Duration timeout) {
        try {
            ProcessBuilder builder = new ProcessBuilder(argv);
            builder.environment().keySet().removeIf(name -> name.startsWith(Workload.RESERVED_ENV_PREFIX));
            if (stdin.isEmpty()) {
                builder.redirectInput(ProcessBuilder.Redirect.from(new File("/dev/null")));
            }
            Process process = builder.start();
            // Read while it runs: a full pipe would otherwise stall a chatty command.
            CompletableFuture<byte[]> out = drain(process.getInputStream());
            CompletableFuture<byte[]> err = drain(process.getErrorStream());
            if (stdin.isPresent()) {
                try (var in = process.getOutputStream()) {
                    in.write(stdin.get());
                } catch (IOException e) {
                    // The command ended without reading all of it; its exit status says what happened.
                }
            }
            if (!process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                process.destroyForcibly();
                throw new GantryException(ErrorCode.REMOTE_ERROR, argv.get(0) + " did not finish within "
                        + timeout.toSeconds() + "s on " + name());
            }
            return new RemoteResult(process.exitValue(), out.join(), err.join());
        } catch (IOException e) {
            throw new GantryException(ErrorCode.REMOTE_ERROR, "cannot run " + argv.get(0) + " on " + name() + ": "
                    + e.getMessage(), e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new GantryException(ErrorCode.REMOTE_ERROR, "interrupted while running " + argv.get(0), e);
        }
    }

    private static CompletableFuture<byte[]> drain(InputStream stream) {
        // Own threads, not the common pool: a reader blocks until the command ends.
        return CompletableFuture.supplyAsync(() -> {
            try (InputStream in = stream) {
                return in.readAllBytes();
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
        }, READERS);
    }
}
