package dev.perflab.wallet;

import java.math.BigDecimal;

/** One row of {@code ledger_entry}: either a debit or a credit. */
public record LedgerRow(String groupId, long walletId, int ledgerCodeId, BigDecimal debit, BigDecimal credit) {
}
