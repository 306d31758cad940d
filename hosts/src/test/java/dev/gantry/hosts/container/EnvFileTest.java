package dev.gantry.hosts.container;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class EnvFileTest {
    @Test
    void oneLinePerVariableWithTheValueVerbatim() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PLAIN", "value");
        env.put("SPACES", "  leading and trailing  ");
        env.put("QUOTES", "it's \"quoted\" $HOME `id` \\n #x");
        env.put("EQUALS", "a=b=c");
        env.put("EMPTY", "");
        env.put("UNICODE", "héllo ✓ 日本");
        EnvFile file = EnvFile.of(env);
        assertEquals("PLAIN=value\nSPACES=  leading and trailing  \nQUOTES=it's \"quoted\" $HOME `id` \\n #x\n"
                + "EQUALS=a=b=c\nEMPTY=\nUNICODE=héllo ✓ 日本\n", file.text());
        assertEquals(Map.of(), file.byName());
    }

    @Test
    void valuesALineCannotHoldAreListedByNameAndNeverSplit() {
        Map<String, String> env = new LinkedHashMap<>();
        env.put("PEM", "-----BEGIN KEY-----\nabc\n-----END KEY-----\n");
        env.put("CR", "ends with return\r");
        env.put("LONG", "x".repeat(EnvFile.MAX_LINE));
        env.put("AFTER", "ok");
        EnvFile file = EnvFile.of(env);
        assertEquals("PEM\nCR\nLONG\nAFTER=ok\n", file.text());
        assertEquals(List.of("PEM", "CR", "LONG"), file.namesOnly());
        assertEquals(env.get("PEM"), file.byName().get("PEM"));
        assertEquals(env.get("LONG"), file.byName().get("LONG"));
    }

    @Test
    void aValueJustUnderTheLineLimitStaysInTheFile() {
        String value = "y".repeat(EnvFile.MAX_LINE - "NAME=".length() - 1);
        EnvFile file = EnvFile.of(Map.of("NAME", value));
        assertEquals("NAME=" + value + "\n", file.text());
        assertEquals(Map.of(), file.byName());
    }
}
