package dev.perflab.wallet;

import java.math.BigDecimal;

/** The body of a 201 from {@code POST /api/transfers}; stored with the Idempotency-Key and replayed as is. */
public record TransferResponse(String transferId, BigDecimal amount, BigDecimal balanceAfter) {
}
