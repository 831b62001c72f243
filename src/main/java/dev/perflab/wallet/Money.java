package dev.perflab.wallet;

import java.math.BigDecimal;
import java.math.RoundingMode;

/** Amounts are DECIMAL(19,2): two decimals, always written with scale 2. */
final class Money {

    private Money() {
    }

    static BigDecimal of(BigDecimal value) {
        return value.setScale(2, RoundingMode.UNNECESSARY);
    }
}
