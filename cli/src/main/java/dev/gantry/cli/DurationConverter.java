package dev.gantry.cli;

import java.time.Duration;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import picocli.CommandLine;

/** Durations as configuration writes them ({@code 90s}, {@code 15m}, {@code 1h}); anything else is a usage error. */
final class DurationConverter implements CommandLine.ITypeConverter<Duration> {
    private static final Pattern DURATION = Pattern.compile("(\\d{1,9})(ms|s|m|h)");

    @Override
    public Duration convert(String value) {
        Matcher m = DURATION.matcher(value.strip());
        if (!m.matches() || Long.parseLong(m.group(1)) == 0) {
            throw new CommandLine.TypeConversionException("'" + value + "' is not a positive duration; write e.g. "
                    + "90s, 15m or 1h");
        }
        long n = Long.parseLong(m.group(1));
        return switch (m.group(2)) {
            case "ms" -> Duration.ofMillis(n);
            case "s" -> Duration.ofSeconds(n);
            case "m" -> Duration.ofMinutes(n);
            default -> Duration.ofHours(n);
        };
    }
}
