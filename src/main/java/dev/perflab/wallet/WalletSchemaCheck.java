package dev.perflab.wallet;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.perflab.support.variant.Knobs;

import org.springframework.boot.ApplicationArguments;
import org.springframework.boot.ApplicationRunner;
import org.springframework.stereotype.Component;

/**
 * The index on {@code wallet.member_id} is fixed when a database is migrated (V3_1), so one database serves
 * one side of the index A/B. At startup this reads the index the database really has, exports it as
 * {@code perflab_wallet_member_index_unique} (1 or 0) so that every run shows which side it measured, and
 * warns when it differs from {@code perflab.wallet.index}. It warns rather than stops: the global presets
 * {@code before}/{@code after} of other features share one database, and must still start on it.
 */
@Component
class WalletSchemaCheck implements ApplicationRunner {

    private static final Logger log = LoggerFactory.getLogger(WalletSchemaCheck.class);
    private final WalletMapper wallets;
    private final WalletKnobs knobs;
    private final MeterRegistry registry;

    WalletSchemaCheck(WalletMapper wallets, WalletKnobs knobs, MeterRegistry registry) {
        this.wallets = wallets;
        this.knobs = knobs;
        this.registry = registry;
    }

    @Override
    public void run(ApplicationArguments args) {
        Boolean unique = wallets.memberIdIndexIsUnique();
        if (unique == null) {
            throw new IllegalStateException("wallet.member_id has no index: is the wallet migration (V3, V3_1) applied?");
        }
        WalletKnobs.Index found = unique ? WalletKnobs.Index.UNIQUE : WalletKnobs.Index.NON_UNIQUE;
        Gauge.builder("perflab.wallet.member.index.unique", () -> unique ? 1 : 0)
                .description("1 when wallet.member_id has a UNIQUE index in this database, 0 when only the foreign key's")
                .register(registry);
        if (found != knobs.index()) {
            log.warn("This database was migrated with a {} index on wallet.member_id, but perflab.wallet.index={}: this run"
                    + " measures the {} side. Each side of the index A/B has its own database (docs/wallet.md:"
                    + " perflab_wallet_before, perflab_wallet_after).", Knobs.valueOf(found), Knobs.valueOf(knobs.index()),
                    Knobs.valueOf(found));
        } else {
            log.info("wallet.member_id index: {}", Knobs.valueOf(found));
        }
    }
}
