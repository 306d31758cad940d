package dev.gantry.api.backend;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.Locale;
import java.util.Random;
import java.util.Set;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;

class JobNamesTest {
    private static final Pattern DNS_LABEL = Pattern.compile("[a-z0-9]([a-z0-9-]{0,61}[a-z0-9])?");
    private static final Pattern LETTER_FIRST_LABEL = Pattern.compile("[a-z]([a-z0-9-]*[a-z0-9])?");
    private static final Pattern BATCH_ID = Pattern.compile("[a-z0-9_-]{1,64}");
    private static final String KEY_CHARS = "ABCabcxyz0189._-";

    @Test
    void aKeyThatFitsIsKeptAsItIs() {
        assertEquals("train-llm-3", JobNames.dnsLabel("train-llm-3"));
        assertEquals("run_7-step-a", JobNames.caseInsensitiveId("run_7-step-a", 64));
    }

    @Test
    void aKeyThatDoesNotFitIsCleanedCutAndHashed() {
        String name = JobNames.dnsLabel("Run.2026-12-01.Step_A");
        assertTrue(name.startsWith("run-2026-12-01-step-a-"), name);
        assertEquals("run-2026-12-01-step-a-".length() + JobNames.HASH_DIGITS, name.length());

        String longName = JobNames.dnsLabel("a".repeat(128));
        assertEquals(63, longName.length());
        assertTrue(DNS_LABEL.matcher(longName).matches(), longName);

        String leading = JobNames.dnsLabel("-._x");
        assertTrue(leading.startsWith("x-"), leading);
        assertTrue(DNS_LABEL.matcher(JobNames.dnsLabel("---")).matches());
    }

    @Test
    void keysThatDifferOnlyInCaseGetDifferentNames() {
        assertNotEquals(JobNames.dnsLabel("job-a"), JobNames.dnsLabel("Job-A"));
        assertNotEquals(JobNames.caseInsensitiveId("job-a", 64),
                JobNames.caseInsensitiveId("Job-A", 64).toLowerCase(Locale.ROOT));
    }

    /** {@code count} distinct random keys of 1-128 of {@code chars}, the same for the same seed. */
    private static Set<String> randomKeys(long seed, String chars, int count) {
        Random random = new Random(seed);
        Set<String> keys = new LinkedHashSet<>();
        while (keys.size() < count) {
            StringBuilder key = new StringBuilder();
            int length = 1 + random.nextInt(128);
            for (int i = 0; i < length; i++) {
                key.append(chars.charAt(random.nextInt(chars.length())));
            }
            keys.add(key.toString());
        }
        return keys;
    }

    @Test
    void namesAreStableValidAndDistinctOverManyKeys() {
        Set<String> labels = new HashSet<>();
        Set<String> ids = new HashSet<>();
        for (String k : randomKeys(8, KEY_CHARS, 20_000)) {
            String label = JobNames.dnsLabel(k);
            assertTrue(DNS_LABEL.matcher(label).matches(), k + " -> " + label);
            assertEquals(label, JobNames.dnsLabel(k), "stable");
            assertTrue(labels.add(label), "two keys met as one label: " + label);
            String id = JobNames.caseInsensitiveId(k, 64);
            assertTrue(BATCH_ID.matcher(id).matches(), k + " -> " + id);
            assertTrue(ids.add(id.toLowerCase(Locale.ROOT)), "two keys met as one id without case: " + id);
        }
    }

    @Test
    void aShortLabelThatStartsWithALetterIsKeptAsItIs() {
        assertEquals("train-llm-3", JobNames.dnsLabel("train-llm-3", 52));
    }

    @Test
    void aShortLabelStartsWithALetterEvenWhenTheKeyStartsWithADigit() {
        String name = JobNames.dnsLabel("1abc", 52);
        assertEquals("j1abc-" + name.substring(6), name);
        assertEquals(6 + JobNames.HASH_DIGITS, name.length());
        assertTrue(LETTER_FIRST_LABEL.matcher(JobNames.dnsLabel("123", 52)).matches());
        assertTrue(LETTER_FIRST_LABEL.matcher(JobNames.dnsLabel("---", 52)).matches());
        assertTrue(LETTER_FIRST_LABEL.matcher(JobNames.dnsLabel("-9", 14)).matches());
        assertNotEquals(JobNames.dnsLabel("1abc", 52), JobNames.dnsLabel("j1abc", 52));
    }

    @Test
    void aShortLabelIsCutToItsLengthAndKeepsTheWholeKeyInItsHash() {
        String key = "run-2026-12-01-" + "x".repeat(60);
        String name = JobNames.dnsLabel(key, 52);
        assertEquals(52, name.length());
        assertTrue(name.startsWith("run-2026-12-01-x"), name);
        assertNotEquals(name, JobNames.dnsLabel(key + "y", 52));
        String digits = JobNames.dnsLabel("9".repeat(80), 52);
        assertEquals(52, digits.length());
        assertTrue(LETTER_FIRST_LABEL.matcher(digits).matches(), digits);
    }

    @Test
    void aShortLabelLongerThanALabelOrTooShortForTheHashIsRefused() {
        IllegalArgumentException tooLong = assertThrows(IllegalArgumentException.class,
                () -> JobNames.dnsLabel("a", 64));
        assertEquals("maxLength must be at most 63 (an RFC 1123 label), got 64", tooLong.getMessage());
        IllegalArgumentException tooShort = assertThrows(IllegalArgumentException.class,
                () -> JobNames.dnsLabel("a", 13));
        assertEquals("maxLength must be at least 14, got 13", tooShort.getMessage());
    }

    @Test
    void shortLabelsAreStableValidAndDistinctOverManyKeys() {
        Set<String> labels = new HashSet<>();
        for (String k : randomKeys(52, KEY_CHARS + "0123456789", 20_000)) {
            String label = JobNames.dnsLabel(k, 52);
            assertTrue(label.length() <= 52, k + " -> " + label);
            assertTrue(LETTER_FIRST_LABEL.matcher(label).matches(), k + " -> " + label);
            assertEquals(label, JobNames.dnsLabel(k, 52), "stable");
            assertTrue(labels.add(label), "two keys met as one label: " + label);
        }
    }
}
