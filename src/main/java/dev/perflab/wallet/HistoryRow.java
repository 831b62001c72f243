package dev.perflab.wallet;

import java.math.BigDecimal;

/** One row of {@code wallet_transaction}. */
public record HistoryRow(String groupId, long walletId, long memberId, String type, BigDecimal amount,
        BigDecimal balanceBefore, BigDecimal balanceAfter, long counterpartyMemberId, String counterpartyName) {

    public static final String TRANSFER_OUT = "TRANSFER_OUT";
    public static final String TRANSFER_IN = "TRANSFER_IN";
    public static final String SUCCESS = "SUCCESS";
}
