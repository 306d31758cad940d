package dev.gantry.hosts.jobs;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import dev.gantry.hosts.Host;
import dev.gantry.hosts.LocalHost;
import java.lang.reflect.Proxy;
import java.nio.file.Path;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A job that ends between status's first read of its exit file and its look at the process. */
class JobDirectoryRaceTest {
    @TempDir
    Path dir;

    @Test
    void aJobThatEndsDuringTheSnapshotReadsAsEndedNotAsDied() {
        Host local = LocalHost.detect();
        String job = dir.resolve("job-race").toString();
        local.createDirectory(job);
        local.writeAtomically(job + "/" + JobDirectory.LAUNCHED, "");
        local.writeAtomically(job + "/" + JobDirectory.PID, "999999999\n");
        // The process check is where the job "ends": the wrapper writes exit, then its process is gone.
        Host racing = (Host) Proxy.newProxyInstance(Host.class.getClassLoader(), new Class<?>[] {Host.class},
                (proxy, method, args) -> {
                    if (method.getName().equals("isAlive")) {
                        local.writeAtomically(job + "/" + JobDirectory.EXIT, "0\n");
                        return false;
                    }
                    return method.invoke(local, args);
                });
        JobSnapshot snapshot = new JobDirectory(racing, job).snapshot();
        assertFalse(snapshot.alive());
        assertEquals(OptionalInt.of(0), snapshot.exitCode(), "the exit written during the snapshot must be seen");
    }
}
