package dev.perflab.wallet;

/**
 * One money transfer in one transaction of its own, which {@link Transfers} runs again on a deadlock. Each
 * variant opens the transaction itself (with the shared {@code TransactionTemplate}), so that it decides what
 * happens while the pool connection is held.
 * Implementations: {@code before.NaiveTransferService} and {@code after.OptimizedTransferService}, picked by
 * {@code perflab.wallet.transfer}. Both lock the two wallets in member-id order, move the money, write two
 * history rows, four ledger rows and the idempotency record, and throw {@link dev.perflab.support.problem.ApiException}
 * for a wrong PIN or insufficient funds, or Spring's {@code DuplicateKeyException} when the Idempotency-Key
 * was already used (the caller then replays the stored response).
 */
public interface TransferService {

    TransferResponse transfer(TransferCommand command);
}
