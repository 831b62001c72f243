package dev.perflab.wallet.bench;

import java.math.BigDecimal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicBoolean;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The physical ceiling of a wallet transfer on this machine: the optimized transaction (lock both wallets in
 * one statement, the idempotency INSERT, one UPDATE ... CASE, one two-row history INSERT, one four-row ledger
 * INSERT, COMMIT) in a bare JDBC loop, no HTTP, no Spring, no pool, no cache lookups. Closed loop: each of
 * THREADS connections runs transfers back to back for SECONDS, picking senders and receivers as k6/transfer.js
 * does (senders user1..200, receivers user201..2200).
 *
 * {@code WALLET_BENCH_SHAPE=naive} runs the naive variant's statements instead (member row, two single-row
 * {@code SELECT ... FOR UPDATE}, two UPDATEs, two history INSERTs, two ledger-code SELECTs, the ledger INSERT,
 * the idempotency INSERT; the receiver lookup by phone before the transaction), to compare the two shapes
 * without HTTP or Spring.
 *
 * Not part of {@code ./mvnw verify} (the class name matches neither Surefire's nor Failsafe's patterns). Run:
 * <pre>
 * WALLET_BENCH_DB=perflab_wallet_after WALLET_BENCH_THREADS=5 WALLET_BENCH_SECONDS=30 \
 *   ./mvnw -B test -Dtest=JdbcCeilingBench -Dsurefire.failIfNoSpecifiedTests=false
 * ./perflab seed wallet --db perflab_wallet_after reset     # it writes real transfers
 * </pre>
 */
class JdbcCeilingBench {

    private static final String MEMBER = "SELECT id, name FROM member WHERE id = ?";
    private static final String BY_PHONE = "SELECT id, name FROM member WHERE phone = ?";
    private static final String LOCK_ONE = "SELECT id, member_id, balance, pin_hash FROM wallet WHERE member_id = ? FOR UPDATE";
    private static final String UPDATE_ONE = "UPDATE wallet SET balance = ? WHERE id = ?";
    private static final String HISTORY_ONE = "INSERT INTO wallet_transaction (group_id, wallet_id, member_id, type, amount,"
            + " balance_before, balance_after, counterparty_member_id, counterparty_name, status) VALUES"
            + " (?, ?, ?, 'TRANSFER_OUT', ?, ?, ?, ?, ?, 'SUCCESS')";
    private static final String CODE = "SELECT id, code FROM ledger_code WHERE code = ?";
    private static final boolean NAIVE = "naive".equals(System.getenv("WALLET_BENCH_SHAPE"));

    private static final String LOCK = "SELECT w.id, w.member_id, w.balance, m.name FROM wallet w JOIN member m ON m.id = w.member_id"
            + " WHERE w.member_id IN (?, ?) ORDER BY w.member_id FOR UPDATE";
    private static final String IDEMPOTENCY = "INSERT INTO idempotency_key (member_id, idem_key, request_hash, response_status,"
            + " response_body) VALUES (?, ?, ?, 201, ?)";
    private static final String UPDATE = "UPDATE wallet SET balance = CASE id WHEN ? THEN ? WHEN ? THEN ? END WHERE id IN (?, ?)";
    private static final String HISTORY = "INSERT INTO wallet_transaction (group_id, wallet_id, member_id, type, amount,"
            + " balance_before, balance_after, counterparty_member_id, counterparty_name, status) VALUES"
            + " (?, ?, ?, 'TRANSFER_OUT', ?, ?, ?, ?, ?, 'SUCCESS'), (?, ?, ?, 'TRANSFER_IN', ?, ?, ?, ?, ?, 'SUCCESS')";
    private static final String LEDGER = "INSERT INTO ledger_entry (group_id, wallet_id, ledger_code_id, debit, credit) VALUES"
            + " (?, ?, 2, ?, 0), (?, ?, 1, 0, ?), (?, ?, 1, ?, 0), (?, ?, 2, 0, ?)";

    @Test
    void transfersPerSecond() throws Exception {
        String url = "jdbc:mariadb://" + env("PERFLAB_DB_HOST", "127.0.0.1") + ":" + env("PERFLAB_DB_PORT", "3306") + "/"
                + env("WALLET_BENCH_DB", "perflab_wallet_after");
        int threads = Integer.parseInt(env("WALLET_BENCH_THREADS", "5"));
        int seconds = Integer.parseInt(env("WALLET_BENCH_SECONDS", "30"));
        int warmup = Integer.parseInt(env("WALLET_BENCH_WARMUP_SECONDS", "5"));

        run(url, threads, warmup); // JIT and buffer pool
        long[][] latencies = run(url, threads, seconds);

        long[] all = Arrays.stream(latencies).flatMapToLong(Arrays::stream).sorted().toArray();
        double rate = all.length / (double) seconds;
        System.out.printf("JDBC ceiling (" + (NAIVE ? "naive" : "optimized") + "): %s threads=%d seconds=%d transfers=%d rate=%.0f/s avg=%.2fms p95=%.2fms p99=%.2fms%n",
                url, threads, seconds, all.length, rate, Arrays.stream(all).average().orElse(0) / 1e6,
                all[(int) (all.length * 0.95)] / 1e6, all[(int) (all.length * 0.99)] / 1e6);
        assertThat(all.length).isPositive();
    }

    private static long[][] run(String url, int threads, int seconds) throws Exception {
        AtomicBoolean stop = new AtomicBoolean();
        List<Thread> workers = new ArrayList<>();
        long[][] results = new long[threads][];
        for (int t = 0; t < threads; t++) {
            int index = t;
            workers.add(Thread.ofPlatform().start(() -> results[index] = loop(url, stop)));
        }
        Thread.sleep(seconds * 1000L);
        stop.set(true);
        for (Thread worker : workers) {
            worker.join();
        }
        return results;
    }

    private static long[] loop(String url, AtomicBoolean stop) {
        long[] latencies = new long[1 << 20];
        int n = 0;
        try (Connection c = DriverManager.getConnection(url, env("PERFLAB_DB_USER", "perflab"), env("PERFLAB_DB_PASSWORD", "perflab"));
                PreparedStatement lock = c.prepareStatement(LOCK); PreparedStatement idem = c.prepareStatement(IDEMPOTENCY);
                PreparedStatement update = c.prepareStatement(UPDATE); PreparedStatement history = c.prepareStatement(HISTORY);
                PreparedStatement ledger = c.prepareStatement(LEDGER)) {
            c.setAutoCommit(false);
            while (!stop.get() && n < latencies.length) {
                long started = System.nanoTime();
                try {
                    if (NAIVE) {
                        naiveTransfer(c, idem, ledger);
                    } else {
                        transfer(c, lock, idem, update, history, ledger);
                    }
                    latencies[n++] = System.nanoTime() - started;
                } catch (SQLException e) {
                    c.rollback(); // a deadlock victim: not counted
                }
            }
        } catch (SQLException e) {
            throw new IllegalStateException(e);
        }
        return Arrays.copyOf(latencies, n);
    }

    private static void transfer(Connection c, PreparedStatement lock, PreparedStatement idem, PreparedStatement update,
            PreparedStatement history, PreparedStatement ledger) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long sender = 1 + random.nextInt(200);
        long receiver = 201 + random.nextInt(2000);
        BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(900), 2);
        String group = UUID.randomUUID().toString();
        lock.setLong(1, Math.min(sender, receiver));
        lock.setLong(2, Math.max(sender, receiver));
        long[] walletIds = new long[2];
        BigDecimal[] balances = new BigDecimal[2];
        String[] names = new String[2];
        try (ResultSet rs = lock.executeQuery()) {
            while (rs.next()) {
                int side = rs.getLong(2) == sender ? 0 : 1;
                walletIds[side] = rs.getLong(1);
                balances[side] = rs.getBigDecimal(3);
                names[side] = rs.getString(4);
            }
        }
        BigDecimal senderAfter = balances[0].subtract(amount);
        BigDecimal receiverAfter = balances[1].add(amount);
        idem.setLong(1, sender);
        idem.setString(2, UUID.randomUUID().toString());
        idem.setString(3, "0".repeat(64));
        idem.setString(4, "{\"transferId\":\"" + group + "\",\"amount\":" + amount + ",\"balanceAfter\":" + senderAfter + "}");
        idem.executeUpdate();
        update.setLong(1, walletIds[0]);
        update.setBigDecimal(2, senderAfter);
        update.setLong(3, walletIds[1]);
        update.setBigDecimal(4, receiverAfter);
        update.setLong(5, walletIds[0]);
        update.setLong(6, walletIds[1]);
        update.executeUpdate();
        Object[] rows = {group, walletIds[0], sender, amount, balances[0], senderAfter, receiver, names[1],
                group, walletIds[1], receiver, amount, balances[1], receiverAfter, sender, names[0]};
        for (int i = 0; i < rows.length; i++) {
            history.setObject(i + 1, rows[i]);
        }
        history.executeUpdate();
        Object[] entries = {group, walletIds[0], amount, group, walletIds[0], amount, group, walletIds[1], amount,
                group, walletIds[1], amount};
        for (int i = 0; i < entries.length; i++) {
            ledger.setObject(i + 1, entries[i]);
        }
        ledger.executeUpdate();
        c.commit();
    }

    /** The naive shape: 1 statement before the transaction and 11 in it, one row per statement. */
    private static void naiveTransfer(Connection c, PreparedStatement idem, PreparedStatement ledger) throws SQLException {
        ThreadLocalRandom random = ThreadLocalRandom.current();
        long sender = 1 + random.nextInt(200);
        long receiver = 201 + random.nextInt(2000);
        BigDecimal amount = BigDecimal.valueOf(100 + random.nextInt(900), 2);
        String group = UUID.randomUUID().toString();
        c.setAutoCommit(true);
        query(c, BY_PHONE, String.format("010%08d", receiver));
        c.setAutoCommit(false);
        query(c, MEMBER, sender);
        long[] walletIds = new long[2];
        BigDecimal[] balances = new BigDecimal[2];
        for (long member : new long[] {Math.min(sender, receiver), Math.max(sender, receiver)}) {
            try (PreparedStatement lock = c.prepareStatement(LOCK_ONE)) {
                lock.setLong(1, member);
                try (ResultSet rs = lock.executeQuery()) {
                    rs.next();
                    int side = member == sender ? 0 : 1;
                    walletIds[side] = rs.getLong(1);
                    balances[side] = rs.getBigDecimal(3);
                }
            }
        }
        update(c, UPDATE_ONE, balances[0].subtract(amount), walletIds[0]);
        update(c, UPDATE_ONE, balances[1].add(amount), walletIds[1]);
        update(c, HISTORY_ONE, group, walletIds[0], sender, amount, balances[0], balances[0].subtract(amount), receiver, "x");
        update(c, HISTORY_ONE, group, walletIds[1], receiver, amount, balances[1], balances[1].add(amount), sender, "x");
        query(c, CODE, "BANK_PAYABLE");
        query(c, CODE, "BANK_ASSET");
        Object[] entries = {group, walletIds[0], amount, group, walletIds[0], amount, group, walletIds[1], amount,
                group, walletIds[1], amount};
        for (int i = 0; i < entries.length; i++) {
            ledger.setObject(i + 1, entries[i]);
        }
        ledger.executeUpdate();
        idem.setLong(1, sender);
        idem.setString(2, UUID.randomUUID().toString());
        idem.setString(3, "0".repeat(64));
        idem.setString(4, "{}");
        idem.executeUpdate();
        c.commit();
    }

    private static void query(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            try (ResultSet rs = statement.executeQuery()) {
                while (rs.next()) {
                    rs.getObject(1);
                }
            }
        }
    }

    private static void update(Connection c, String sql, Object... args) throws SQLException {
        try (PreparedStatement statement = c.prepareStatement(sql)) {
            for (int i = 0; i < args.length; i++) {
                statement.setObject(i + 1, args[i]);
            }
            statement.executeUpdate();
        }
    }

    private static String env(String name, String fallback) {
        String value = System.getenv(name);
        return value == null || value.isBlank() ? fallback : value;
    }
}
