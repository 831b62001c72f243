package dev.perflab.wallet;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

/**
 * The contract on preset wallet-after with the cache knob off ({@code perflab.wallet.cache=off}): the case study's
 * middle stage (ordered locks, batched statements, the unique index, no Redis), which {@code ./perflab ab wallet}
 * runs as {@code wallet-indexed}. The phone and ledger-code lookups read MariaDB, so a transfer sends 7 statements.
 */
@ActiveProfiles("wallet-after")
@TestPropertySource(properties = "perflab.wallet.cache=off")
class OptimizedTransferWithoutCacheIT extends TransferContract {

    @Override
    int statementsPerTransfer() {
        return 7;
    }
}
