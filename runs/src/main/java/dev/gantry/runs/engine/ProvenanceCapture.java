package dev.gantry.runs.engine;

import dev.gantry.api.CatalogInfo;
import dev.gantry.model.RunProvenance;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.time.LocalDate;
import java.util.HexFormat;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.TreeSet;

/** Reads what a run is made from (file contents, the git checkout) into its {@link RunProvenance}. */
public final class ProvenanceCapture {
    private ProvenanceCapture() {
    }

    /**
     * Captures the provenance of a run of {@code specFile}; {@code referencedFiles} are the files its steps name
     * ({@code file:}), which are part of what runs as much as the spec itself.
     */
    public static RunProvenance capture(Path specFile, List<Path> referencedFiles, CatalogInfo catalog,
            String gantryVersion) {
        Path directory = specFile.toAbsolutePath().getParent();
        Optional<GitCheckout.State> git = GitCheckout.of(directory);
        return new RunProvenance(contentHash(specFile, referencedFiles), git.map(GitCheckout.State::commit),
                git.map(GitCheckout.State::dirty), catalog.source(), catalog.date(), gantryVersion);
    }

    /**
     * {@code sha256:HEX} over the spec and its referenced files, each as its path relative to the spec's directory
     * and its bytes, in path order: the same files with the same content give the same hash wherever the checkout
     * lies, and moving or editing any of them changes it.
     */
    static String contentHash(Path specFile, List<Path> referencedFiles) {
        Path spec = specFile.toAbsolutePath().normalize();
        Path directory = spec.getParent();
        TreeSet<String> names = new TreeSet<>();
        names.add(directory.relativize(spec).toString());
        for (Path file : referencedFiles) {
            names.add(directory.relativize(directory.resolve(file).normalize()).toString());
        }
        MessageDigest digest = sha256();
        for (String name : names) {
            byte[] content;
            try {
                content = Files.readAllBytes(directory.resolve(name));
            } catch (IOException e) {
                throw new GantryException(ErrorCode.SPEC_INVALID, "cannot read " + directory.resolve(name)
                        + " to record what the run was made from: " + e.getMessage(), e);
            }
            digest.update(name.getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(Long.toString(content.length).getBytes(StandardCharsets.UTF_8));
            digest.update((byte) 0);
            digest.update(content);
        }
        return "sha256:" + HexFormat.of().formatHex(digest.digest());
    }

    private static MessageDigest sha256() {
        try {
            return MessageDigest.getInstance("SHA-256");
        } catch (NoSuchAlgorithmException e) {
            throw new IllegalStateException("every Java runtime has SHA-256", e);
        }
    }
}
