package dev.perflab.wallet;

import java.math.BigDecimal;

/**
 * A wallet row read with {@code FOR UPDATE}, with its owner's name for the other side's history row and the time
 * until which {@link PinGuard} refuses its transfers (epoch ms, 0 = none; read in the same statement, so the guard
 * costs a transfer no statement).
 */
public record LockedWallet(long id, long memberId, BigDecimal balance, String pinHash, String ownerName,
        long pinBlockedUntilMs) {
}
