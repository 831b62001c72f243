package dev.perflab.wallet;

/**
 * The four balanced {@code ledger_entry} rows of one transfer, named: money leaves the sender's wallet (the bank
 * owes the sender less, and holds less for wallets), then arrives in the receiver's (the bank owes the receiver
 * more, and holds more). A transfer always writes exactly these four, so {@code LedgerMapper.insertEntries} is
 * static SQL, parsed once at startup; as a {@code <foreach>} over a list MyBatis built and parsed it again on every
 * transfer (see docs/wallet.md, "Changes to the shared path").
 */
public record TransferLedger(LedgerRow senderPayable, LedgerRow senderAsset, LedgerRow receiverAsset,
        LedgerRow receiverPayable) {
}
