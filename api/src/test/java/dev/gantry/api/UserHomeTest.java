package dev.gantry.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.Map;
import org.junit.jupiter.api.Test;

class UserHomeTest {
    private static final Path ACCOUNT = Path.of(System.getProperty("user.home"));

    @Test
    void homeIsTheEnvironmentsHomeWhenItIsAnAbsolutePath() {
        assertEquals(Path.of("/tmp/ci-home"), UserHome.of(Map.of("HOME", "/tmp/ci-home")));
    }

    @Test
    void anUnsetEmptyOrRelativeHomeFallsBackToTheAccountsHome() {
        assertEquals(ACCOUNT, UserHome.of(Map.of()));
        assertEquals(ACCOUNT, UserHome.of(Map.of("HOME", "")));
        assertEquals(ACCOUNT, UserHome.of(Map.of("HOME", "relative/dir")));
    }

    @Test
    void aLeadingTildeIsTheHomeAndNothingElseIs() {
        Path home = Path.of("/h");
        assertEquals(home, UserHome.expand("~", home));
        assertEquals(Path.of("/h/.ssh/id_ed25519"), UserHome.expand("~/.ssh/id_ed25519", home));
        assertEquals(Path.of("/etc/~/x"), UserHome.expand("/etc/~/x", home));
        assertEquals(Path.of("~other/x"), UserHome.expand("~other/x", home));
    }
}
