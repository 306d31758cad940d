package dev.gantry.http;

import java.time.Duration;
import java.time.Instant;
import java.time.ZonedDateTime;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Objects;
import java.util.Optional;

/**
 * The {@code Retry-After} header (RFC 9110, section 10.2.3): how long a server asks a client to wait, as
 * delta-seconds ({@code 120}) or as an HTTP date ({@code Wed, 21 Oct 2015 07:28:00 GMT}).
 */
public final class RetryAfter {
    private RetryAfter() {
    }

    /**
     * The wait the value asks for, counted from {@code now}: a date or a number of seconds in the past is no wait
     * at all. Empty for a value that is neither (a server's garbage is not a reason to wait; the caller backs off).
     */
    public static Optional<Duration> parse(String value, Instant now) {
        Objects.requireNonNull(now, "now");
        String text = Objects.requireNonNull(value, "value").strip();
        if (text.isEmpty()) {
            return Optional.empty();
        }
        try {
            return Optional.of(Duration.ofSeconds(Math.max(0, Long.parseLong(text))));
        } catch (NumberFormatException notSeconds) {
            try {
                Duration wait = Duration.between(now, ZonedDateTime.parse(text, DateTimeFormatter.RFC_1123_DATE_TIME)
                        .toInstant());
                return Optional.of(wait.isNegative() ? Duration.ZERO : wait);
            } catch (DateTimeParseException notDate) {
                return Optional.empty();
            }
        }
    }
}
