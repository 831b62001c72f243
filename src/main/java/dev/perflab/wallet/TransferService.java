package dev.perflab.wallet;

/**
 * One money transfer inside a transaction that {@link Transfers} opens (and retries on a deadlock).
 * Implementations: {@code before.NaiveTransferService} and {@code after.OptimizedTransferService}, picked by
 * {@code perflab.wallet.transfer}. Both lock the two wallets in member-id order, move the money, write two
 * history rows, four ledger rows and the idempotency record, and throw {@link dev.perflab.support.problem.ApiException}
 * for a wrong PIN or insufficient funds, or Spring's {@code DuplicateKeyException} when the Idempotency-Key
 * was already used (the caller then replays the stored response).
 */
public interface TransferService {

    TransferResponse transfer(TransferCommand command);
}
