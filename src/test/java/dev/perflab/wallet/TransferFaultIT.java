package dev.perflab.wallet;

import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;

import com.zaxxer.hikari.HikariDataSource;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 14, finding 1 and 2: the database connection of a transfer is killed (MariaDB {@code KILL}) while the
 * transfer waits inside its transaction. The client must get a 503 {@code database-unavailable} problem with
 * {@code Retry-After} (it got a 500, and under a database shutdown even a 200 with an empty body), no money may
 * move, and a retry with the same Idempotency-Key must then succeed exactly once.
 */
@IntegrationTest
@Import(WalletSideDatabase.class)
@ActiveProfiles("wallet-after")
class TransferFaultIT {

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;
    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    dev.perflab.wallet.Pins pins;
    @Autowired
    HikariDataSource dataSource;
    @Autowired
    MeterRegistry meters;

    @Test
    void aTransferWhoseConnectionIsKilledMidTransactionIsA503RolledBackAndARetrySucceedsOnce() throws Exception {
        WalletFixtures fixtures = new WalletFixtures(jdbc, pins);
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        Http http = new Http(port);
        String key = UUID.randomUUID().toString();
        String body = "{\"receiverPhone\":\"" + bob.phone() + "\",\"amount\":10.00,\"pin\":\"1234\"}";
        String[] headers = {"Authorization", "Bearer " + tokens.issue(alice.id(), "user" + alice.id()).accessToken(),
                "Idempotency-Key", key};
        double outagesBefore = outages();

        Http.Response killed;
        try (Connection locker = DriverManager.getConnection(dataSource.getJdbcUrl(), dataSource.getUsername(),
                dataSource.getPassword()); Statement lock = locker.createStatement()) {
            locker.setAutoCommit(false);
            lock.executeQuery("SELECT balance FROM wallet WHERE member_id = " + bob.id() + " FOR UPDATE").close();
            CompletableFuture<Http.Response> answer = CompletableFuture.supplyAsync(() -> http.post("/api/transfers", body, headers));
            long victim = await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(50))
                    .until(() -> waitingTransfer(locker), id -> id != null);
            lock.execute("KILL CONNECTION " + victim);
            killed = answer.get();
            locker.rollback();
        }

        assertThat(killed.status()).isEqualTo(503);
        assertThat(killed.contentType()).startsWith("application/problem+json");
        assertThat(killed.json().at("/code").asString()).isEqualTo("database-unavailable");
        assertThat(killed.header("Retry-After")).isEqualTo("1");
        assertThat(killed.body()).doesNotContainIgnoringCase("conn=").doesNotContain("Exception", "SELECT", "java.");
        assertThat(outages()).isEqualTo(outagesBefore + 1);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("100.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("0.00");

        Http.Response retried = http.post("/api/transfers", body, headers);
        Http.Response replayed = http.post("/api/transfers", body, headers);

        assertThat(retried.status()).isEqualTo(201);
        assertThat(retried.header("Idempotent-Replayed")).isEqualTo("false");
        assertThat(replayed.status()).isEqualTo(201);
        assertThat(replayed.header("Idempotent-Replayed")).isEqualTo("true");
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("90.00");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("10.00");
        List<String> transfers = jdbc.queryForList("SELECT DISTINCT group_id FROM wallet_transaction WHERE member_id = ?",
                String.class, alice.id());
        assertThat(transfers).containsExactly(retried.json().at("/transferId").asString());
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM ledger_entry WHERE group_id = ?", Long.class, transfers.get(0))).isEqualTo(4);
    }

    /** The app's connection that waits for the row lock this test holds, or null while there is none yet. */
    private static Long waitingTransfer(Connection locker) throws Exception {
        try (Statement query = locker.createStatement(); var rows = query.executeQuery(
                "SELECT id FROM information_schema.processlist WHERE db = DATABASE() AND id <> CONNECTION_ID()"
                        + " AND info LIKE '%FOR UPDATE%'")) {
            return rows.next() ? rows.getLong(1) : null;
        }
    }

    private double outages() {
        var counter = meters.find("perflab.dependency.unavailable").tag("dependency", "database").counter();
        return counter == null ? 0 : counter.count();
    }
}
