package dev.gantry.api;

import java.math.BigDecimal;

/** Number formatting for messages: no trailing {@code .0}, no exponent. */
final class Numbers {
    private Numbers() {
    }

    static String format(double value) {
        if (!Double.isFinite(value)) {
            return Double.toString(value);
        }
        return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
    }
}
