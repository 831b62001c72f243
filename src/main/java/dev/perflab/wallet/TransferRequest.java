package dev.perflab.wallet;

import java.math.BigDecimal;

/** The body of {@code POST /api/transfers}. The PIN never appears in a log (Spring logs bodies at DEBUG). */
public record TransferRequest(String receiverPhone, BigDecimal amount, String pin) {

    @Override
    public String toString() {
        return "TransferRequest[receiverPhone=" + receiverPhone + ", amount=" + amount + ", pin=******]";
    }
}
