package dev.gantry.model;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** How prices and quantities read in reasons and messages: at most four decimals, no trailing zeros. */
public final class Money {
    private Money() {
    }

    public static String format(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).stripTrailingZeros().toPlainString();
    }

    /** {@code 32.77 USD/h}. */
    public static String perHour(double value) {
        return format(value) + " USD/h";
    }

    /** Rounded for JSON: four decimals keeps cents exact and hides binary noise such as 65.54000000000001. */
    public static double round(double value) {
        return BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_EVEN).doubleValue();
    }

    /** One decimal for GiB figures in model-size arithmetic. */
    public static String gib(double value) {
        return BigDecimal.valueOf(value).setScale(1, RoundingMode.HALF_UP).stripTrailingZeros().toPlainString();
    }
}
