package dev.gantry.backend.batch.internal.remote;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.microsoft.azure.batch.protocol.models.BatchError;
import com.microsoft.azure.batch.protocol.models.BatchErrorException;
import com.microsoft.azure.batch.protocol.models.ErrorMessage;
import dev.gantry.api.ErrorCode;
import dev.gantry.api.GantryException;
import dev.gantry.http.Jitter;
import java.io.InterruptedIOException;
import java.net.SocketTimeoutException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import okhttp3.MediaType;
import okhttp3.ResponseBody;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import retrofit2.Response;

/**
 * The policy's answers that the Batch fake cannot give: {@code PoolQuotaReached} (the fake has an active-job quota
 * only; SubmitPathTest holds {@code ActiveJobAndScheduleQuotaReached}), and an interrupt during a request, which must
 * stop the call rather than send it again, unlike a timeout.
 */
class BatchCallsTest {
    private final List<Duration> waits = new ArrayList<>();
    private final BatchCalls calls = new BatchCalls(new BatchCalls.Policy(4, Duration.ofMillis(100),
            Duration.ofSeconds(30), 3, Duration.ofSeconds(20), Jitter.NONE, waits::add));
    private final AtomicInteger sent = new AtomicInteger();

    @AfterEach
    void clearTheInterrupt() {
        Thread.interrupted();
    }

    /** What the SDK throws for a refusal: the status and Batch's error body. */
    private static BatchErrorException refused(int status, String code) {
        Response<ResponseBody> response = Response.error(status, ResponseBody.create(
                MediaType.get("application/json"), "{}"));
        return new BatchErrorException("refused", response, new BatchError().withCode(code)
                .withMessage(new ErrorMessage().withValue("The pool quota was reached.")));
    }

    @Test
    void aPoolQuotaReachedIsWaitedForThenQuotaExceeded() {
        GantryException e = assertThrows(GantryException.class, () -> calls.call("adding pool p", () -> {
            sent.incrementAndGet();
            throw refused(409, "PoolQuotaReached");
        }));

        assertEquals(ErrorCode.QUOTA_EXCEEDED, e.code());
        assertTrue(e.getMessage().contains("409 PoolQuotaReached") && e.getMessage().contains("after 3 tries")
                && e.getMessage().contains("adding pool p"), e.getMessage());
        assertEquals(3, sent.get());
        assertEquals(List.of(Duration.ofSeconds(20), Duration.ofSeconds(20)), waits, "bounded, as configured");
    }

    @Test
    void aPoolQuotaThatFreesWithinTheBoundIsWaitedOut() {
        String answer = calls.call("adding pool p", () -> {
            if (sent.incrementAndGet() == 1) {
                throw refused(409, "PoolQuotaReached");
            }
            return "added";
        });

        assertEquals("added", answer);
        assertEquals(List.of(Duration.ofSeconds(20)), waits);
    }

    @Test
    void anInterruptDuringARequestStopsTheCallWithoutSendingItAgain() {
        GantryException e = assertThrows(GantryException.class, () -> calls.call("reading stdout.txt", () -> {
            sent.incrementAndGet();
            // OkHttp's answer to an interrupted read, as the SDK passes it on; the flag may be cleared on the way.
            throw new RuntimeException(new InterruptedIOException("interrupted"));
        }));

        assertEquals(1, sent.get(), "never sent again");
        assertEquals(List.of(), waits);
        assertTrue(e.getMessage().contains("interrupted while reading stdout.txt"), e.getMessage());
        assertTrue(Thread.currentThread().isInterrupted(), "the interrupt is kept for the caller");
    }

    @Test
    void aTimeoutIsSentAgainAfterTheBackoff() {
        String answer = calls.call("listing tasks", () -> {
            if (sent.incrementAndGet() == 1) {
                throw new RuntimeException(new SocketTimeoutException("timeout"));
            }
            return "listed";
        });

        assertEquals("listed", answer);
        assertEquals(List.of(Duration.ofMillis(100)), waits);
        assertFalse(Thread.currentThread().isInterrupted());
    }
}
