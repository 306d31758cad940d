package dev.gantry.backend.aks.testcluster;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** Cases of the kubelet's own expansion tests (third_party/forked/golang/expansion/expand_test.go). */
class ExpansionTest {
    private static final Map<String, String> VARS = Map.of("VAR_A", "A", "VAR_B", "B", "VAR_C", "C",
            "VAR_REF", "$(VAR_A)", "VAR_EMPTY", "");

    @ParameterizedTest(name = "{0} -> {1}")
    @CsvSource(delimiter = '|', quoteCharacter = '\'', value = {
        "$(VAR_A) | A",
        "___$(VAR_B)___ | ___B___",
        "$(VAR_A)-$(VAR_A) | A-A",
        "$(VAR_A)_$(VAR_B)_$(VAR_C) | A_B_C",
        "$(VAR_REF) | $(VAR_A)",
        "foo$(VAR_EMPTY)bar | foobar",
        "$(UNKNOWN) | $(UNKNOWN)",
        "$$(VAR_A) | $(VAR_A)",
        "$$$(VAR_A) | $A",
        "$$$$(VAR_A) | $$(VAR_A)",
        "$$ | $",
        "$ | $",
        "$(VAR_A | $(VAR_A",
        "f00__(VAR_A) | f00__(VAR_A)",
        "$VAR_A | $VAR_A",
        "${VAR_A} | ${VAR_A}",
        "$() | $()",
        "$(VAR_A)$ | A$",
        "'a $ b' | 'a $ b'",
    })
    void expandsAsTheKubeletDoes(String input, String expected) {
        assertEquals(expected, Expansion.expand(input, List.of(VARS)));
    }
}
