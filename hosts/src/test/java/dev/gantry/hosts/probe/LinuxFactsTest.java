package dev.gantry.hosts.probe;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;

class LinuxFactsTest {

    @Test
    void osReleaseReadsQuotedAndBareValues() {
        Optional<OsRelease> os = LinuxFacts.osRelease("""
                PRETTY_NAME="Ubuntu 24.04.2 LTS"
                NAME="Ubuntu"
                VERSION_ID="24.04"
                ID=ubuntu
                ID_LIKE=debian
                """).value();
        assertEquals(Optional.of(new OsRelease("ubuntu", "Ubuntu", "24.04", "Ubuntu 24.04.2 LTS")), os);
    }

    @Test
    void osReleaseWithoutIdOrNameIsAProblem() {
        Parsed<Optional<OsRelease>> parsed = LinuxFacts.osRelease("garbage\n");
        assertEquals(Optional.empty(), parsed.value());
        assertEquals("os: no ID or NAME in /etc/os-release: 'garbage'", parsed.problems().get(0).toString());
    }

    @Test
    void unameGivesReleaseAndMachine() {
        assertEquals(Optional.of(new LinuxFacts.Uname("6.5.0-1025-azure", "x86_64")),
                LinuxFacts.uname("Linux 6.5.0-1025-azure x86_64\n").value());
        assertEquals(1, LinuxFacts.uname("Linux\n").problems().size());
    }

    @Test
    void cpusMustBeAPositiveNumber() {
        assertEquals(OptionalInt.of(96), LinuxFacts.cpus("96\n").value());
        assertEquals("cpus: expected a positive number of CPUs from nproc, got 'zero'",
                LinuxFacts.cpus("zero").problems().get(0).toString());
        assertEquals(OptionalInt.empty(), LinuxFacts.cpus("0").value());
    }

    @Test
    void memoryIsMemTotalInGib() {
        OptionalDouble gib = LinuxFacts.memoryGib("MemTotal:       16365720 kB\nMemFree:  1 kB\n").value();
        assertEquals(15.6, gib.getAsDouble(), 0.01);
        assertEquals(1, LinuxFacts.memoryGib("MemFree: 1 kB").problems().size());
    }

    @Test
    void diskReadsAvailableAndAMountPointWithSpaces() {
        DiskSpace disk = LinuxFacts.disk("""
                Filesystem     1024-blocks      Used Available Capacity Mounted on
                /dev/sdb1        65536000   1048576  62914560       2% /mnt/scratch space
                """, "/mnt/scratch space/gantry").value().orElseThrow();
        assertEquals(new DiskSpace("/mnt/scratch space/gantry", "/mnt/scratch space", 60.0), disk);
    }

    @Test
    void diskErrorsAreProblems() {
        Parsed<Optional<DiskSpace>> parsed = LinuxFacts.disk("df: /nope: No such file or directory", "/nope");
        assertEquals(Optional.empty(), parsed.value());
        assertTrue(parsed.problems().get(0).message().startsWith("expected a header and one line from df -Pk, got 1"),
                parsed.problems().toString());
        Parsed<Optional<DiskSpace>> bad = LinuxFacts.disk("Filesystem x\n/dev/sda1 1 2 lots 3% /\n", "/");
        assertEquals(List.of("disk: expected FILESYSTEM BLOCKS USED AVAILABLE CAPACITY MOUNTED-ON from df -Pk, got "
                + "'/dev/sda1 1 2 lots 3% /'"), bad.problems().stream().map(ProbeProblem::toString).toList());
    }
}
