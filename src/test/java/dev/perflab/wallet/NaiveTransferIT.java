package dev.perflab.wallet;

import org.junit.jupiter.api.Test;

import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract on preset wallet-before: naive transfer, no cache, non-unique index (perflab_test_*_before), and the
 * naive header parsers (perflab.parse.header defaults to naive).
 */
@ActiveProfiles("wallet-before")
class NaiveTransferIT extends TransferContract {

    @Override
    int statementsPerTransfer() {
        return 12;
    }

    @Test
    void theDatabaseOfThisSideHasOnlyTheForeignKeysNonUniqueIndex() {
        assertThat(jdbc.queryForList("SELECT index_name FROM information_schema.statistics WHERE table_schema = DATABASE()"
                + " AND table_name = 'wallet' AND column_name = 'member_id' AND non_unique = 1", String.class))
                .containsExactly("idx_wallet_member_id");
        assertThat(meters.get("perflab.wallet.member.index.unique").gauge().value()).isZero();
    }
}
