package dev.perflab.wallet;

import java.math.BigDecimal;

/** The body of {@code POST /api/transfers}. */
public record TransferRequest(String receiverPhone, BigDecimal amount, String pin) {
}
