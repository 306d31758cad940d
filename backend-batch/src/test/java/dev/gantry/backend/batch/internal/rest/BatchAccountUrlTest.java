package dev.gantry.backend.batch.internal.rest;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

class BatchAccountUrlTest {
    @Test
    void anHttpsAccountUrlIsKeptWithoutItsTrailingSlash() {
        BatchAccountUrl url = BatchAccountUrl.of("https://mybatch.westeurope.batch.azure.com/");
        assertEquals("https://mybatch.westeurope.batch.azure.com", url.baseUrl());
        assertEquals("mybatch.westeurope.batch.azure.com", url.host());
        assertEquals(Optional.of("mybatch"), url.accountNameFromHost());
        assertFalse(url.isPlainHttp());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://127.0.0.1:8080", "http://localhost:8080", "http://[::1]:8080", "http://127.0.0.2"})
    void plainHttpIsAcceptedForALoopbackHost(String url) {
        BatchAccountUrl account = BatchAccountUrl.of(url);
        assertTrue(account.isPlainHttp());
        assertEquals(Optional.empty(), BatchAccountUrl.problem(url));
    }

    @Test
    void anIpAddressHasNoAccountNameInIt() {
        assertEquals(Optional.empty(), BatchAccountUrl.of("http://127.0.0.1:8080").accountNameFromHost());
    }

    @ParameterizedTest
    @ValueSource(strings = {"http://mybatch.westeurope.batch.azure.com", "http://10.0.0.4:8080",
            "http://localhost.example.com"})
    void plainHttpToAnyOtherHostIsRefusedSayingWhy(String url) {
        IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> BatchAccountUrl.of(url));
        assertTrue(e.getMessage().contains("'" + url + "'"), e.getMessage());
        assertTrue(e.getMessage().contains("in clear") && e.getMessage().contains("loopback"), e.getMessage());
        assertTrue(e.getMessage().contains("https://ACCOUNT.REGION.batch.azure.com"), e.getMessage());
        assertEquals(Optional.of(e.getMessage()), BatchAccountUrl.problem(url));
    }

    @ParameterizedTest
    @ValueSource(strings = {"", "mybatch.westeurope.batch.azure.com", "ftp://mybatch.westeurope.batch.azure.com",
            "https://mybatch.westeurope.batch.azure.com/pools", "https://mybatch.westeurope.batch.azure.com?x=1",
            "https://user@mybatch.westeurope.batch.azure.com", "https://my batch"})
    void anythingButSchemeHostAndPortIsRefusedWithTheFix(String url) {
        Optional<String> problem = BatchAccountUrl.problem(url);
        assertTrue(problem.isPresent(), url);
        assertTrue(problem.get().contains("https://ACCOUNT.REGION.batch.azure.com"), problem.get());
    }
}
