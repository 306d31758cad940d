package dev.gantry.images;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import dev.gantry.api.ContainerSpec;
import dev.gantry.api.GantryException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Thousands of generated image names, well formed and not, built from the parts Docker reads (registry, repository
 * components, tag, digest) with valid and invalid choices for each, then mutated character by character. For each
 * name, the spec's check ({@link ContainerSpec}) and the image parser ({@link ContainerImageName}) must agree, and a
 * rejected name must be explained part by part, not only by the general rule.
 */
class ImageNameAgreementTest {
    private static final int NAMES = 20_000;
    private static final long SEED = 20261201L;
    private static final String HEX = "0123456789abcdef";

    private static final String[] REGISTRIES = {
        "nvcr.io", "docker.io", "index.docker.io", "MyACR.azurecr.io", "localhost", "localhost:5000", "my-host:443",
        "10.0.0.4:5000", "a.b.c.d", "xn--bcher-kva.example",
    };
    // Malformed, or no registry at all (without a '.' or ':', and not localhost, it is the repository's first part).
    private static final String[] BAD_REGISTRIES = {
        "Foo", "foo", "a_b.com", "-bad.io", "bad-.io", "a..b", ".io", "host:", "host:123456", "host:port",
        "bad_host!.io", "LOCALHOST", "exa mple.com",
    };
    private static final String[] COMPONENTS = {
        "pytorch", "nvidia", "a", "0", "a.b", "a_b", "a__b", "a-b", "a---b", "b_c__d-e.f", "cuda12",
    };
    private static final String[] BAD_COMPONENTS = {
        "PyTorch", "a_", "_a", "a___b", "a..b", "a.", "-a", "", "a b", "a+b", "ü",
    };
    private static final String[] TAGS = {
        "latest", "24.05-py3", "_x", "X", "v1.2.3", "a".repeat(128), "2.3.0-cuda12.1-cudnn8-runtime",
    };
    private static final String[] BAD_TAGS = {
        ".x", "-x", "a".repeat(129), "a+b", "", "a/b", "a:b",
    };
    private static final String[] DIGESTS = {
        "sha256:" + HEX.repeat(4), "sha512:" + HEX.repeat(8), "blake3:" + HEX.repeat(2), "multihash+base58:"
                + HEX.repeat(3), "sha512:" + HEX.toUpperCase().repeat(8),
    };
    private static final String[] BAD_DIGESTS = {
        "sha256:" + HEX.toUpperCase().repeat(4), "sha256:" + HEX.repeat(2), "sha256:" + HEX.repeat(4) + "0",
        "SHA256:" + HEX.repeat(4), "sha256:", ":" + HEX.repeat(4), "sha256:" + "g".repeat(64), "md5:" + HEX,
        "sha-:" + HEX.repeat(4),
    };
    private static final String MUTATIONS = "aZ09._-:/@+ ";

    @Test
    void theSpecsCheckAndTheParserAgreeOnEveryName() {
        Random random = new Random(SEED);
        int valid = 0;
        List<String> disagreements = new ArrayList<>();
        for (int i = 0; i < NAMES; i++) {
            String name = mutate(random, compose(random));
            boolean specAccepts = specAccepts(name);
            boolean parserAccepts = parserAccepts(name);
            if (specAccepts != parserAccepts) {
                disagreements.add("'" + name + "': spec " + specAccepts + ", parser " + parserAccepts);
            }
            if (!specAccepts && ContainerImageName.problems(name).isEmpty()) {
                disagreements.add("'" + name + "': rejected, but the parser cannot say which part is wrong");
            }
            if (specAccepts && !ContainerImageName.problems(name).isEmpty()) {
                disagreements.add("'" + name + "': accepted, but the parser finds "
                        + ContainerImageName.problems(name));
            }
            valid += specAccepts ? 1 : 0;
        }
        if (!disagreements.isEmpty()) {
            fail(disagreements.size() + " disagreements, e.g.\n" + String.join("\n",
                    disagreements.subList(0, Math.min(20, disagreements.size()))));
        }
        // The generator must exercise both answers, or agreement proves nothing.
        assertTrue(valid > NAMES / 5 && valid < NAMES * 4 / 5, valid + " of " + NAMES + " names were valid");
    }

    @Test
    void namesTheOldPatternsTreatedDifferentlyNowGetOneAnswer() {
        // Each was accepted by one definition and refused by the other before there was one.
        for (String name : List.of("Foo/bar", "a_b.com/x", "host:123456/x", "a..b/x", "ubuntu@sha256:" + HEX.repeat(2),
                "ubuntu@SHA256:" + HEX.repeat(4))) {
            assertEquals(false, specAccepts(name), name);
            assertEquals(false, parserAccepts(name), name);
        }
    }

    private static String compose(Random random) {
        StringBuilder name = new StringBuilder();
        if (random.nextInt(3) > 0) {
            name.append(pick(random, REGISTRIES, BAD_REGISTRIES)).append('/');
        }
        int components = 1 + random.nextInt(3);
        for (int c = 0; c < components; c++) {
            name.append(c == 0 ? "" : "/").append(pick(random, COMPONENTS, BAD_COMPONENTS));
        }
        if (random.nextInt(2) == 0) {
            name.append(':').append(pick(random, TAGS, BAD_TAGS));
        }
        if (random.nextInt(3) == 0) {
            name.append('@').append(pick(random, DIGESTS, BAD_DIGESTS));
        }
        return name.toString();
    }

    /** Leaves most names alone; changes one or two characters of the others. */
    private static String mutate(Random random, String name) {
        StringBuilder text = new StringBuilder(name);
        int edits = random.nextInt(4) == 0 ? 1 + random.nextInt(2) : 0;
        for (int e = 0; e < edits && text.length() > 0; e++) {
            int at = random.nextInt(text.length());
            char c = MUTATIONS.charAt(random.nextInt(MUTATIONS.length()));
            switch (random.nextInt(3)) {
                case 0 -> text.insert(at, c);
                case 1 -> text.deleteCharAt(at);
                default -> text.setCharAt(at, c);
            }
        }
        return text.toString();
    }

    /** Mostly a well-formed part, so that whole names are often valid; sometimes a malformed one. */
    private static String pick(Random random, String[] good, String[] bad) {
        String[] choices = random.nextInt(8) == 0 ? bad : good;
        return choices[random.nextInt(choices.length)];
    }

    private static boolean specAccepts(String name) {
        try {
            new ContainerSpec(name);
            return true;
        } catch (GantryException e) {
            return false;
        }
    }

    private static boolean parserAccepts(String name) {
        try {
            ContainerImageName.parse(name);
            return true;
        } catch (GantryException e) {
            return false;
        }
    }
}
