package dev.perflab.wallet.after;

import dev.perflab.wallet.TransferParts;
import dev.perflab.wallet.TransferService;

/**
 * The after side's transfer for the interleaved mode ({@code wallet.WalletArms}), built beside the app's own variant
 * when the app runs the before preset. Its caches need the Redis cache of {@code perflab.wallet.cache=redis}, so
 * they are not built here: an after arm in such an app reads MariaDB.
 */
public final class AfterSide {

    private AfterSide() {
    }

    public static TransferService transferService(BatchedTransferMapper wallets, TransferParts parts) {
        return new OptimizedTransferService(wallets, parts);
    }
}
