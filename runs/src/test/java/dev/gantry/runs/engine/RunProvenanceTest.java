package dev.gantry.runs.engine;

import dev.gantry.model.RunProvenance;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.CatalogInfo;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.LocalDate;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Provenance against a real git checkout made for the test. */
class RunProvenanceTest {
    private static final CatalogInfo CATALOG = new CatalogInfo("test catalog", LocalDate.of(2026, 11, 29),
            Optional.empty());

    @TempDir
    Path dir;

    @Test
    void outsideACheckoutThereIsNoCommitButAHashAndTheCatalog() throws IOException {
        Path spec = write("flow.yaml", "kind: Workflow\n");
        RunProvenance provenance = ProvenanceCapture.capture(spec, List.of(), CATALOG, "0.1.0");
        assertEquals(Optional.empty(), provenance.gitCommit());
        assertEquals(Optional.empty(), provenance.gitDirty());
        assertTrue(provenance.specHash().matches("sha256:[0-9a-f]{64}"), provenance.specHash());
        assertEquals("test catalog", provenance.catalogSource());
        assertEquals(LocalDate.of(2026, 11, 29), provenance.catalogDate());
        assertEquals("0.1.0", provenance.gantryVersion());
    }

    @Test
    void aCleanCheckoutGivesItsCommitAndAChangeMarksItDirty() throws Exception {
        Path spec = write("flow.yaml", "kind: Workflow\n");
        git("init", "-q");
        git("add", "flow.yaml");
        git("-c", "user.name=test", "-c", "user.email=test@example.invalid", "commit", "-q", "-m", "spec");
        String head = git("rev-parse", "HEAD").strip();

        RunProvenance clean = ProvenanceCapture.capture(spec, List.of(), CATALOG, "0.1.0");
        assertEquals(Optional.of(head), clean.gitCommit());
        assertEquals(Optional.of(false), clean.gitDirty());

        write("flow.yaml", "kind: Workflow\nmetadata: {name: edited}\n");
        RunProvenance edited = ProvenanceCapture.capture(spec, List.of(), CATALOG, "0.1.0");
        assertEquals(Optional.of(head), edited.gitCommit());
        assertEquals(Optional.of(true), edited.gitDirty());
        assertNotEquals(clean.specHash(), edited.specHash());
    }

    @Test
    void theHashCoversReferencedFilesAndNotWhereTheCheckoutLies() throws IOException {
        Path spec = write("flow.yaml", "kind: Workflow\n");
        write("steps/train.yaml", "kind: Workload\n");
        String first = ProvenanceCapture.contentHash(spec, List.of(Path.of("steps/train.yaml")));
        assertNotEquals(ProvenanceCapture.contentHash(spec, List.of()), first, "a referenced file is part of the hash");
        // Named twice or through "..", a file counts once.
        assertEquals(first, ProvenanceCapture.contentHash(spec, List.of(Path.of("steps/train.yaml"),
                Path.of("steps/../steps/train.yaml"))));

        Path copy = Files.createDirectories(dir.resolve("elsewhere"));
        Files.createDirectories(copy.resolve("steps"));
        Files.copy(spec, copy.resolve("flow.yaml"));
        Files.copy(dir.resolve("steps/train.yaml"), copy.resolve("steps/train.yaml"));
        assertEquals(first, ProvenanceCapture.contentHash(copy.resolve("flow.yaml"), List.of(Path.of("steps/train.yaml"))));

        write("steps/train.yaml", "kind: Workload\n# changed\n");
        assertNotEquals(first, ProvenanceCapture.contentHash(spec, List.of(Path.of("steps/train.yaml"))));
    }

    private Path write(String name, String text) throws IOException {
        Path file = dir.resolve(name);
        Files.createDirectories(file.getParent());
        return Files.writeString(file, text);
    }

    private String git(String... arguments) throws Exception {
        List<String> command = new ArrayList<>(List.of("git", "-C", dir.toString()));
        command.addAll(List.of(arguments));
        Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
        String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertEquals(0, process.waitFor(), "git " + String.join(" ", arguments) + ": " + out);
        return out;
    }
}
