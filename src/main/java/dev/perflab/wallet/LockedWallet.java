package dev.perflab.wallet;

import java.math.BigDecimal;

/** A wallet row read with {@code FOR UPDATE}, with its owner's name for the other side's history row. */
public record LockedWallet(long id, long memberId, BigDecimal balance, String pinHash, String ownerName) {
}
