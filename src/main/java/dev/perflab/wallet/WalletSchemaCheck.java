package dev.perflab.wallet;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.perflab.support.variant.Knobs;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The index on {@code wallet.member_id} is fixed when a database is migrated (V3_1), so one database serves
 * one side of the index A/B. At startup this checks that the database found matches
 * {@code perflab.wallet.index}, and stops the app when it does not, rather than measure the wrong side.
 */
@Component
class WalletSchemaCheck implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WalletSchemaCheck.class);
    private final WalletMapper wallets;
    private final WalletProperties properties;

    WalletSchemaCheck(WalletMapper wallets, WalletProperties properties) {
        this.wallets = wallets;
        this.properties = properties;
    }

    @Override
    public void run(ApplicationArguments args) {
        Boolean unique = wallets.memberIdIndexIsUnique();
        if (unique == null) {
            throw new IllegalStateException("wallet.member_id has no index: is the wallet migration (V3, V3_1) applied?");
        }
        WalletProperties.Index found = unique ? WalletProperties.Index.UNIQUE : WalletProperties.Index.NON_UNIQUE;
        if (found != properties.index()) {
            throw new IllegalStateException("This database was migrated with a " + Knobs.valueOf(found)
                    + " index on wallet.member_id, but perflab.wallet.index=" + Knobs.valueOf(properties.index())
                    + ". Each side of the index A/B has its own database: point PERFLAB_DB_NAME at the database of"
                    + " this side (docs/wallet.md uses perflab_wallet_before and perflab_wallet_after).");
        }
        log.info("wallet.member_id index: {}", Knobs.valueOf(found));
    }
}
