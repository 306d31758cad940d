package org.example.gantry.podman.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ContainerEnvironmentTest {
    @Test
    void valuesTravelInPodmansEnvironmentExceptForNamesPodmanReadsItself() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("SEED", "7");
        env.put("MULTI", "a\nb");
        env.put("PATH", "/opt/bin:/usr/bin");
        env.put("XDG_CACHE_HOME", "/cache");
        env.put("GOOGLE_PROJECT", "p");
        ContainerEnvironment split = ContainerEnvironment.of(env);
        assertEquals(List.of("SEED", "MULTI", "GOOGLE_PROJECT"), split.names());
        assertEquals(Map.of("SEED", "7", "MULTI", "a\nb", "GOOGLE_PROJECT", "p"), split.processEnvironment());
        assertEquals("PATH=/opt/bin:/usr/bin\nXDG_CACHE_HOME=/cache\n", split.envFile());
    }

    @Test
    void aLineBreakInAVariablePodmanReadsItselfIsRefusedNamingIt() {
        GantryException e = assertThrows(GantryException.class,
                () -> ContainerEnvironment.of(Map.of("HOME", "/a\n/b")));
        assertEquals(ErrorCode.PLAN_REJECTED, e.code());
        assertTrue(e.getMessage().startsWith("env.HOME: podman reads HOME itself"), e.getMessage());
        assertTrue(e.getMessage().contains("allowed: a value on one line"), e.getMessage());
    }
}
