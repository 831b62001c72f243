package dev.perflab.wallet;

import java.math.BigDecimal;

/**
 * A validated transfer, ready to run in one transaction: the receiver is already resolved, the amount
 * checked, and {@code storedResponse} is what the idempotency record keeps if it commits.
 */
public record TransferCommand(long senderId, MemberRef receiver, String idempotencyKey, String requestHash,
        String transferId, BigDecimal amount, String pinHash) {

    /** Without the PIN's hash and the request hash, so that a log line never carries either. */
    @Override
    public String toString() {
        return "TransferCommand[senderId=" + senderId + ", receiver=" + receiver + ", idempotencyKey=" + idempotencyKey
                + ", transferId=" + transferId + ", amount=" + amount + ", pin=******]";
    }
}
