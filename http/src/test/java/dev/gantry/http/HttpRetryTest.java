package dev.gantry.http;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.ConnectException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Test;

/** The retry policy against scripted answers, a recording sleeper and a fixed clock: no test waits for real. */
class HttpRetryTest {
    private static final Instant NOW = Instant.parse("2026-12-05T07:28:00Z");
    private final List<Duration> waits = new ArrayList<>();

    private HttpRetry.Builder policy() {
        return HttpRetry.builder().sleeper(waits::add).clock(Clock.fixed(NOW, ZoneOffset.UTC)).jitter(Jitter.NONE);
    }

    /** Answers in order, then 200; counts what was sent. */
    private static final class Server implements HttpRetry.Attempt<HttpAnswer> {
        final Deque<HttpAnswer> answers = new ArrayDeque<>();
        int sent;

        Server answer(int status, String... retryAfter) {
            answers.add(HttpAnswer.of(status, retryAfter.length == 0 ? Map.of()
                    : Map.of("retry-after", List.of(retryAfter))));
            return this;
        }

        @Override
        public HttpAnswer send() {
            sent++;
            return answers.isEmpty() ? HttpAnswer.of(200, Map.of()) : answers.poll();
        }
    }

    @Test
    void retryAfterInSecondsIsWaitedAsAsked() throws Exception {
        Server server = new Server().answer(429, "7").answer(503, "2");
        RetryOutcome<HttpAnswer> outcome = policy().build().call(server);
        assertEquals(200, outcome.status());
        assertEquals(3, outcome.attempts());
        assertEquals(RetryOutcome.Ending.ANSWERED, outcome.ending());
        assertEquals(List.of(Duration.ofSeconds(7), Duration.ofSeconds(2)), waits);
    }

    @Test
    void retryAfterAsAnHttpDateIsCountedFromTheClockAndOneInThePastMeansNow() throws Exception {
        Server server = new Server().answer(503, "Sat, 05 Dec 2026 07:28:45 GMT")
                .answer(503, "Wed, 21 Oct 2015 07:28:00 GMT");
        policy().attempts(3).longestWait(Duration.ofMinutes(1)).build().call(server);
        assertEquals(List.of(Duration.ofSeconds(45), Duration.ZERO), waits);
    }

    @Test
    void aMissingOrGarbledRetryAfterBacksOffDoublingFromTheFirstBackoff() throws Exception {
        Server server = new Server().answer(503).answer(429, "soon").answer(503, "").answer(503, "-5");
        RetryOutcome<HttpAnswer> outcome = policy().attempts(5).build().call(server);
        assertEquals(200, outcome.status());
        // A negative number of seconds asks for no wait, as a date in the past does.
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ZERO),
                waits);
    }

    @Test
    void noWaitIsLongerThanTheLongestWait() throws Exception {
        Server server = new Server().answer(503).answer(503).answer(503).answer(429, "3600");
        policy().attempts(5).firstBackoff(Duration.ofSeconds(2)).longestWait(Duration.ofSeconds(5)).build()
                .call(server);
        assertEquals(List.of(Duration.ofSeconds(2), Duration.ofSeconds(4), Duration.ofSeconds(5),
                Duration.ofSeconds(5)), waits);
    }

    @Test
    void aPolicyThatGivesUpOnALongerRetryAfterDoesNotWait() throws Exception {
        Server server = new Server().answer(429, "3600");
        RetryOutcome<HttpAnswer> outcome = policy().whenAskedToWaitLonger(HttpRetry.LongerWait.GIVE_UP).build()
                .call(server);
        assertEquals(RetryOutcome.Ending.WAIT_TOO_LONG, outcome.ending());
        assertTrue(outcome.gaveUp());
        assertEquals(java.util.Optional.of(Duration.ofHours(1)), outcome.askedWait());
        assertEquals("HTTP 429 asking to retry after 3600s", outcome.reason());
        assertEquals(List.of(), waits);
        assertEquals(1, server.sent);
    }

    @Test
    void jitterShortensAComputedBackoffByUpToHalfAndNeverAnAskedWait() throws Exception {
        double[] draws = {0.0, 0.999_999, 0.5};
        AtomicInteger next = new AtomicInteger();
        Server server = new Server().answer(503).answer(503).answer(503).answer(503, "3");
        policy().attempts(5).jitter(Jitter.shorterBy(0.5, () -> draws[next.getAndIncrement()])).build().call(server);
        assertEquals(Duration.ofSeconds(1), waits.get(0), "a draw of 0: the whole backoff");
        assertEquals(1000, waits.get(1).toMillis(), "a draw near 1: half of 2s");
        assertEquals(Duration.ofSeconds(3), waits.get(2), "half a draw: three quarters of 4s");
        assertEquals(Duration.ofSeconds(3), waits.get(3), "Retry-After is kept as asked");

        for (int i = 0; i < 10_000; i++) {
            Duration wait = Jitter.DEFAULT.apply(Duration.ofSeconds(8));
            assertTrue(wait.compareTo(Duration.ofSeconds(4)) >= 0 && wait.compareTo(Duration.ofSeconds(8)) <= 0,
                    wait.toString());
        }
        assertThrows(IllegalArgumentException.class, () -> Jitter.shorterBy(1.5, Math::random));
    }

    @Test
    void whenTheAttemptsAreUsedUpTheOutcomeNamesTheStatusAndTheAttempts() throws Exception {
        Server server = new Server().answer(503, "1").answer(503, "1").answer(503, "1").answer(503, "1");
        HttpRetry retry = policy().attempts(3).build();
        RetryOutcome<HttpAnswer> outcome = retry.call(server);
        assertEquals(RetryOutcome.Ending.ATTEMPTS_USED_UP, outcome.ending());
        assertTrue(outcome.gaveUp());
        assertEquals(503, outcome.status());
        assertEquals(3, outcome.attempts());
        assertEquals("HTTP 503 3 times", outcome.reason());
        assertEquals(List.of(Duration.ofSeconds(1), Duration.ofSeconds(1)), waits, "no wait after the last attempt");
        assertEquals(3, server.sent);
        assertEquals(3, retry.calls());
    }

    @Test
    void otherStatusesAreAnsweredAtOnceAndEveryAttemptIsCounted() throws Exception {
        HttpRetry retry = policy().build();
        for (int status : new int[] {200, 404, 500, 502}) {
            Server server = new Server().answer(status);
            RetryOutcome<HttpAnswer> outcome = retry.call(server);
            assertEquals(status, outcome.status());
            assertFalse(outcome.gaveUp());
            assertEquals(1, server.sent);
        }
        retry.call(new Server().answer(503));
        assertEquals(6, retry.calls(), "four single attempts and one retried");
        assertEquals(List.of(Duration.ofSeconds(1)), waits);

        Server bad = new Server().answer(502);
        assertEquals(200, policy().retryOn(Set.of(502)).build().call(bad).status(), "a policy's own statuses");
    }

    @Test
    void anInterruptDuringAWaitEndsTheCallWithoutAnotherAttempt() {
        Server server = new Server().answer(503).answer(503);
        HttpRetry retry = policy().sleeper(wait -> {
            throw new InterruptedException("interrupted");
        }).build();
        assertThrows(InterruptedException.class, () -> retry.call(server));
        assertEquals(1, server.sent);
    }

    @Test
    void anInterruptedThreadDoesNotWaitEvenWithASleeperThatIgnoresInterrupts() {
        Server server = new Server().answer(503, "0");
        Thread.currentThread().interrupt();
        try {
            assertThrows(InterruptedException.class, () -> policy().build().call(server));
            assertEquals(List.of(), waits);
            assertFalse(Thread.currentThread().isInterrupted(), "the interrupt became the exception");
        } finally {
            Thread.interrupted();
        }
    }

    @Test
    void theThreadSleeperEndsAtOnceOnAnInterrupt() {
        Thread.currentThread().interrupt();
        long start = System.nanoTime();
        try {
            assertThrows(InterruptedException.class, () -> Sleeper.THREAD.sleep(Duration.ofSeconds(30)));
        } finally {
            Thread.interrupted();
        }
        assertTrue(System.nanoTime() - start < Duration.ofSeconds(5).toNanos());
    }

    @Test
    void anIoFailureEndsTheCallAtOnceUnlessThePolicyRetriesThem() throws Exception {
        ConnectException refused = new ConnectException("Connection refused");
        AtomicInteger sent = new AtomicInteger();
        HttpRetry.Attempt<HttpAnswer> unreachable = () -> {
            sent.incrementAndGet();
            throw refused;
        };
        assertSame(refused, assertThrows(ConnectException.class, () -> policy().build().call(unreachable)));
        assertEquals(1, sent.get());
        assertEquals(List.of(), waits);

        sent.set(0);
        List<String> said = new ArrayList<>();
        HttpRetry.Listener listener = new HttpRetry.Listener() {
            @Override
            public void retrying(int attempt, String why, Duration wait) {
                said.add(attempt + " " + why + " " + wait);
            }
        };
        assertSame(refused, assertThrows(ConnectException.class, () -> policy().attempts(3).retryIoFailures(true)
                .build().call(unreachable, answer -> answer, listener)));
        assertEquals(3, sent.get());
        assertEquals(List.of("1 ConnectException: Connection refused PT1S",
                "2 ConnectException: Connection refused PT2S"), said);
    }

    @Test
    void theBuilderRefusesSettingsThatCannotWork() {
        assertEquals("attempts must be at least 1 (the first attempt), got 0",
                assertThrows(IllegalArgumentException.class, () -> HttpRetry.builder().attempts(0)).getMessage());
        assertEquals("longestWait must be positive, got PT0S", assertThrows(IllegalArgumentException.class,
                () -> HttpRetry.builder().longestWait(Duration.ZERO)).getMessage());
        assertEquals("an HTTP status to retry must be from 100 to 599, got 42", assertThrows(
                IllegalArgumentException.class, () -> HttpRetry.builder().retryOn(Set.of(42))).getMessage());
    }

    @Test
    void aJavaNetHttpResponseIsRetriedByItsStatusAndRetryAfterHeader() throws Exception {
        HttpServer server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        AtomicInteger requests = new AtomicInteger();
        server.createContext("/", exchange -> {
            boolean first = requests.incrementAndGet() == 1;
            byte[] body = (first ? "busy" : "ok").getBytes(StandardCharsets.UTF_8);
            if (first) {
                exchange.getResponseHeaders().add("Retry-After", "2");
            }
            exchange.sendResponseHeaders(first ? 503 : 200, body.length);
            exchange.getResponseBody().write(body);
            exchange.close();
        });
        server.start();
        try {
            URI uri = URI.create("http://127.0.0.1:" + server.getAddress().getPort() + "/");
            RetryOutcome<HttpResponse<String>> outcome = policy().build().send(HttpClient.newHttpClient(),
                    HttpRequest.newBuilder(uri).GET().build(), HttpResponse.BodyHandlers.ofString());
            assertEquals(200, outcome.status());
            assertEquals("ok", outcome.response().body());
            assertEquals(2, outcome.attempts());
            assertEquals(List.of(Duration.ofSeconds(2)), waits);
        } finally {
            server.stop(0);
        }
    }

    @Test
    void anotherClientsHeadersAreReadInAnyCase() {
        HttpAnswer answer = HttpAnswer.of(429, Map.of("Retry-After", List.of("5", "9")));
        assertEquals(java.util.Optional.of("5"), answer.header("retry-after"));
        assertEquals(java.util.Optional.empty(), answer.header("Location"));
    }

    @Test
    void retryAfterParsing() throws IOException {
        assertEquals(java.util.Optional.of(Duration.ofSeconds(120)), RetryAfter.parse(" 120 ", NOW));
        assertEquals(java.util.Optional.of(Duration.ofSeconds(30)),
                RetryAfter.parse("Sat, 05 Dec 2026 07:28:30 GMT", NOW));
        assertEquals(java.util.Optional.empty(), RetryAfter.parse("tomorrow", NOW));
        assertEquals(java.util.Optional.empty(), RetryAfter.parse("", NOW));
        assertEquals(java.util.Optional.empty(), RetryAfter.parse("1.5", NOW));
    }
}
