package dev.gantry.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How prices and quantities read in reasons and messages: at most four decimals, no trailing zeros. */
public final class Money {
    private Money() {
    }

    /**
     * A price or quantity for reasons and messages.
     *
     * @param value the number
     * @return at most four decimals (half-even), no trailing zeros, no exponent, e.g. {@code 32.77}; {@code NaN} and
     *     infinities as Java writes them
     */
    public static String format(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /**
     * An hourly price for messages.
     *
     * @param value the price in USD per hour
     * @return {@link #format} of it with the unit, e.g. {@code 32.77 USD/h}
     */
    public static String perHour(double value) {
        return format(value) + " USD/h";
    }

    /**
     * Rounded for JSON: four decimals keeps cents exact and hides binary noise such as 65.54000000000001.
     *
     * @param value the number
     * @return it rounded half-even to four decimals
     */
    public static double round(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).doubleValue();
    }

    /**
     * One decimal for GiB figures in model-size arithmetic.
     *
     * @param value the GiB
     * @return it rounded half-up to one decimal, no trailing zero, e.g. {@code 14} or {@code 15.6}
     */
    public static String gib(double value) {
        return BigDecimal.valueOf(value).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
