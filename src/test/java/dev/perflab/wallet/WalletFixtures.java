package dev.perflab.wallet;

import java.math.BigDecimal;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.support.GeneratedKeyHolder;
import org.springframework.transaction.support.TransactionTemplate;

/** Members and wallets of one test, created through SQL with a phone and the PIN 1234, like the seeder's. */
public final class WalletFixtures {

    public static final String PIN = "1234";
    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;
    private final Pins pins;

    public WalletFixtures(JdbcTemplate jdbc, Pins pins) {
        this.jdbc = jdbc;
        this.pins = pins;
        this.transaction = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()));
    }

    public record Account(long id, String phone, String name) {
    }

    /** A member and its wallet, in one transaction: a pool in manual-commit mode (the after preset's) would roll back
     * writes made outside one when the connection returns. */
    public Account account(String balance) {
        return transaction.execute(status -> newAccount(balance));
    }

    private Account newAccount(String balance) {
        String phone = "09" + String.format("%013d", ThreadLocalRandom.current().nextLong(10_000_000_000_000L));
        String name = "Tester " + phone.substring(9);
        GeneratedKeyHolder key = new GeneratedKeyHolder();
        jdbc.update(connection -> {
            var statement = connection.prepareStatement("INSERT INTO member (login_id, name, phone) VALUES (?, ?, ?)",
                    java.sql.Statement.RETURN_GENERATED_KEYS);
            statement.setString(1, "wt-" + UUID.randomUUID());
            statement.setString(2, name);
            statement.setString(3, phone);
            return statement;
        }, key);
        long id = key.getKey().longValue();
        jdbc.update("INSERT INTO wallet (member_id, balance, pin_hash) VALUES (?, ?, ?)", id, new BigDecimal(balance),
                pins.hash(id, PIN));
        return new Account(id, phone, name);
    }

    public BigDecimal balance(long memberId) {
        return jdbc.queryForObject("SELECT balance FROM wallet WHERE member_id = ?", BigDecimal.class, memberId);
    }

    public BigDecimal sumOfBalances(List<Account> accounts) {
        return accounts.stream().map(a -> balance(a.id())).reduce(BigDecimal.ZERO, BigDecimal::add);
    }

    /** Checksums and row counts of every wallet table: equal snapshots mean nothing was written. */
    public String snapshot() {
        StringBuilder out = new StringBuilder();
        jdbc.query("CHECKSUM TABLE member, wallet, wallet_transaction, ledger_entry, idempotency_key EXTENDED",
                rs -> { out.append(rs.getString(1)).append('=').append(rs.getString(2)).append(';'); });
        for (String table : List.of("member", "wallet", "wallet_transaction", "ledger_entry", "idempotency_key")) {
            out.append(table).append(':').append(jdbc.queryForObject("SELECT COUNT(*) FROM " + table, Long.class)).append(';');
        }
        return out.toString();
    }
}
