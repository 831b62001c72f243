package dev.perflab.wallet;

import org.springframework.stereotype.Component;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * What both transfer variants use besides their own mapper: the ledger codes, the ledger INSERT, the
 * idempotency record and the transaction template.
 */
@Component
public record TransferParts(LedgerCodes ledgerCodes, LedgerMapper ledger, IdempotencyRecords idempotency,
        TransactionTemplate transaction) {
}
