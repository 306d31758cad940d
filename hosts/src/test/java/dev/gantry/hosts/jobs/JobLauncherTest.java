package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.hosts.LocalHost;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CountDownLatch;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class JobLauncherTest {
    private static final Instant AT = Instant.parse("2026-12-01T10:00:00Z");
    private static final Duration WAIT = Duration.ofSeconds(10);

    @TempDir
    Path temp;

    private final LocalHost host = LocalHost.detect();

    private static JobRecord record(List<String> command) {
        return new JobRecord("launch", command, List.of("MODE"), "/", AT, "key-1");
    }

    private JobLaunch launch(Path dir, List<String> command, Map<String, String> env, Optional<String> required,
                             Optional<JobLaunch.PrivateFile> privateFile, String launchDirectory) {
        return new JobLaunch(dir.toString(), record(command), Optional.of("rank=0 hosts=local gpus= vcpus=1 "
                + "memoryGib=1.000"), Optional.of(new JobLaunch.Start(command, launchDirectory, required, env,
                privateFile, AT, WAIT)));
    }

    private static String awaitFile(Path file) throws InterruptedException {
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!Files.exists(file)) {
            assertTrue(System.nanoTime() < deadline, file + " did not appear");
            Thread.sleep(20);
        }
        try {
            return Files.readString(file);
        } catch (java.io.IOException e) {
            throw new java.io.UncheckedIOException(e);
        }
    }

    @Test
    void oneCommandWritesTheRecordsStartsTheJobAndDeletesItsEnvironmentFile() throws Exception {
        Path dir = temp.resolve("jobs/job-a");
        String value = "it's \"$HOME\" `id`\nline two";
        List<String> command = List.of("sh", "-c", "printf '%s|' \"$MODE\" \"$1\"; pwd", "sh", "a b");
        assertEquals(JobLauncher.Outcome.STARTED, JobLauncher.launch(host, launch(dir, command,
                Map.of("MODE", value), Optional.of(temp.toString()), Optional.empty(), temp.toString())));
        awaitFile(dir.resolve("exit"));
        assertEquals(value + "|a b|" + temp + "\n", Files.readString(dir.resolve("stdout")));
        assertEquals(record(command), JobRecord.parse(Files.readString(dir.resolve(JobDirectory.RECORD)))
                .orElseThrow());
        assertEquals("rank=0 hosts=local gpus= vcpus=1 memoryGib=1.000\n", Files.readString(dir.resolve("placement")));
        assertEquals(AT.toString(), Files.readString(dir.resolve(JobDirectory.LAUNCHED)).strip());
        assertFalse(Files.exists(dir.resolve("env")), "the environment file outlived the launch");
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (Files.exists(dir.resolve("launch.lock"))) {
            assertTrue(System.nanoTime() < deadline, "the launch lock was not given back");
            Thread.sleep(20);
        }
        try (var files = Files.list(dir)) {
            assertTrue(files.noneMatch(f -> f.getFileName().toString().contains(".tmp")), "temporary files remain");
        }
    }

    @Test
    void aSecondLaunchOfTheJobStartsNothing() throws Exception {
        Path dir = temp.resolve("job-twice");
        List<String> command = List.of("sh", "-c", "echo ran >> \"$0\"", temp.resolve("count").toString());
        JobLaunch launch = launch(dir, command, Map.of(), Optional.empty(), Optional.empty(), temp.toString());
        assertEquals(JobLauncher.Outcome.STARTED, JobLauncher.launch(host, launch));
        assertEquals(JobLauncher.Outcome.ALREADY_LAUNCHED, JobLauncher.launch(host, launch));
        awaitFile(dir.resolve("exit"));
        assertEquals(JobLauncher.Outcome.ALREADY_LAUNCHED, JobLauncher.launch(host, launch));
        assertEquals("ran\n", Files.readString(temp.resolve("count")));
    }

    @Test
    void concurrentLaunchesOfOneJobStartItOnce() throws Exception {
        Path dir = temp.resolve("job-race");
        List<String> command = List.of("sh", "-c", "echo ran >> \"$0\"", temp.resolve("count").toString());
        JobLaunch launch = launch(dir, command, Map.of(), Optional.empty(), Optional.empty(), temp.toString());
        List<JobLauncher.Outcome> outcomes = Collections.synchronizedList(new ArrayList<>());
        CountDownLatch go = new CountDownLatch(1);
        List<Thread> threads = new ArrayList<>();
        for (int i = 0; i < 6; i++) {
            Thread t = new Thread(() -> {
                try {
                    go.await();
                    outcomes.add(JobLauncher.launch(host, launch));
                } catch (InterruptedException e) {
                    Thread.currentThread().interrupt();
                }
            });
            t.start();
            threads.add(t);
        }
        go.countDown();
        for (Thread t : threads) {
            t.join();
        }
        assertEquals(1, outcomes.stream().filter(o -> o == JobLauncher.Outcome.STARTED).count(), outcomes.toString());
        assertEquals(5, outcomes.stream().filter(o -> o == JobLauncher.Outcome.ALREADY_LAUNCHED).count());
        awaitFile(dir.resolve("exit"));
        assertEquals("ran\n", Files.readString(temp.resolve("count")));
    }

    @Test
    void aMissingWorkingDirectoryIsReportedBeforeAnythingIsWritten() {
        Path dir = temp.resolve("job-nowhere");
        assertEquals(JobLauncher.Outcome.MISSING_DIRECTORY, JobLauncher.launch(host, launch(dir, List.of("true"),
                Map.of(), Optional.of("/no/such/dir"), Optional.empty(), "/no/such/dir")));
        assertFalse(Files.exists(dir), "the job directory was created for a job that cannot start");
    }

    @Test
    void prepareOnlyWritesTheRecordsAndStartsNothing() throws Exception {
        Path dir = temp.resolve("job-prepared");
        JobLaunch prepare = new JobLaunch(dir.toString(), record(List.of("true")), Optional.of("rank=1 hosts=a,b "
                + "gpus= vcpus=1 memoryGib=1.000"), Optional.empty());
        assertEquals(JobLauncher.Outcome.PREPARED, JobLauncher.launch(host, prepare));
        assertTrue(Files.exists(dir.resolve(JobDirectory.RECORD)));
        assertTrue(Files.exists(dir.resolve("placement")));
        assertFalse(Files.exists(dir.resolve(JobDirectory.LAUNCHED)));
        // A later start keeps the records the first attempt wrote.
        JobLaunch start = launch(dir, List.of("true"), Map.of(), Optional.empty(), Optional.empty(), temp.toString());
        assertEquals(JobLauncher.Outcome.STARTED, JobLauncher.launch(host, start));
        assertEquals("rank=1 hosts=a,b gpus= vcpus=1 memoryGib=1.000\n", Files.readString(dir.resolve("placement")));
        // The started job writes its files into the directory until it has ended: the temporary directory's removal
        // failed on "directory not empty" in a full run when the test returned first.
        awaitFile(dir.resolve(JobDirectory.EXIT));
    }

    @Test
    void aJobCancelledBeforeItsLaunchNeverStarts() throws Exception {
        Path dir = temp.resolve("job-cancelled");
        Files.createDirectories(dir);
        Files.writeString(dir.resolve(JobDirectory.CANCELLED), AT + "\ncancelled on request\n");
        assertEquals(JobLauncher.Outcome.ALREADY_LAUNCHED, JobLauncher.launch(host, launch(dir, List.of("true"),
                Map.of(), Optional.empty(), Optional.empty(), temp.toString())));
        assertFalse(Files.exists(dir.resolve(JobDirectory.PID)));
    }

    @Test
    void thePrivateFileIsWrittenOnlyForItsOwnerAndOnlyWhenTheJobStarts() throws Exception {
        Path dir = temp.resolve("job-private");
        JobLaunch launch = launch(dir, List.of("sh", "-c", "stat -c %a secret.env; cat secret.env"), Map.of(),
                Optional.empty(), Optional.of(new JobLaunch.PrivateFile("secret.env", "TOKEN=s3cret\n")),
                dir.toString());
        assertEquals(JobLauncher.Outcome.STARTED, JobLauncher.launch(host, launch));
        awaitFile(dir.resolve("exit"));
        assertEquals("600\nTOKEN=s3cret\n", Files.readString(dir.resolve("stdout")));
        Files.delete(dir.resolve("secret.env"));
        assertEquals(JobLauncher.Outcome.ALREADY_LAUNCHED, JobLauncher.launch(host, launch));
        assertFalse(Files.exists(dir.resolve("secret.env")), "a repeated launch wrote the secrets again");
    }

    @Test
    void aLaunchDirectoryThatCannotBeEnteredFailsNamingIt() {
        Path dir = temp.resolve("job-cd");
        GantryException e = assertThrows(GantryException.class, () -> JobLauncher.launch(host, launch(dir,
                List.of("true"), Map.of("TOKEN", "s3cret"), Optional.empty(), Optional.empty(), "/no/such/place")));
        assertEquals(ErrorCode.BACKEND_UNAVAILABLE, e.code());
        assertTrue(e.getMessage().contains("cannot enter /no/such/place"), e.getMessage());
        assertFalse(Files.exists(dir.resolve("env")), "the environment file stayed behind");
    }

    @Test
    void userValuesAreArgumentsNeverShellText() {
        JobLaunch launch = launch(temp.resolve("job-argv"), List.of("echo", "$(id)"), Map.of("A", "`id`"),
                Optional.empty(), Optional.empty(), "/tmp/$(id)");
        List<String> argv = JobLauncher.argv(host, launch, 10, 0);
        assertEquals(List.of("sh", "-c", JobLauncher.script(), "gantry-launch"), argv.subList(0, 4));
        assertTrue(argv.subList(4, argv.size()).contains("/tmp/$(id)"));
        assertEquals(List.of("echo", "$(id)"), argv.subList(argv.size() - 2, argv.size()));
        assertEquals("A='`id`'\n", new String(JobLauncher.environmentFile(launch.start().orElseThrow())));
    }
}
