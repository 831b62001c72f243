package dev.perflab.wallet;

import org.springframework.test.context.ActiveProfiles;

/** The contract on preset wallet-before: naive transfer, no cache, non-unique index (perflab_test_*_before). */
@ActiveProfiles("wallet-before")
class NaiveTransferIT extends TransferContract {

    @Override
    int statementsPerTransfer() {
        return 12;
    }
}
