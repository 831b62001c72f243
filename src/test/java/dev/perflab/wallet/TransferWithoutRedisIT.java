package dev.perflab.wallet;

import java.util.UUID;

import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.NoRedis;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * On wallet-after Redis is only a cache: with Redis unreachable (the app points at a closed port), transfers still
 * move money, reading MariaDB instead. A Redis outage is a 503 {@code redis-unavailable} only where Redis is not
 * optional. The PIN guard then counts in the instance: guessing stays bounded (before, every PIN was checked).
 */
@IntegrationTest
@Import(WalletSideDatabase.class)
@ActiveProfiles("wallet-after")
@org.springframework.test.context.TestPropertySource(properties = {"perflab.wallet.pin-guard.max-failures=5",
        "perflab.wallet.pin-guard.free-failures=2"})
@ContextConfiguration(initializers = NoRedis.class)
class TransferWithoutRedisIT {

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;
    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    dev.perflab.wallet.Pins pins;

    @Test
    void transfersGoOnWhileRedisIsDown() {
        WalletFixtures fixtures = new WalletFixtures(jdbc, pins);
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        String[] headers = {"Authorization", "Bearer " + tokens.issue(alice.id(), "user" + alice.id()).accessToken(),
                "Idempotency-Key", UUID.randomUUID().toString()};

        var answer = new Http(port).post("/api/transfers", "{\"receiverPhone\":\"" + bob.phone() + "\",\"amount\":2.50,\"pin\":\"1234\"}",
                headers);

        assertThat(answer.status()).as(answer.body()).isEqualTo(201);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("7.50");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("2.50");
    }

    @Test
    void pinGuessingStaysBoundedWhileRedisIsDown() {
        WalletFixtures fixtures = new WalletFixtures(jdbc, pins);
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        String auth = "Bearer " + tokens.issue(alice.id(), "user" + alice.id()).accessToken();
        Http http = new Http(port);
        java.util.function.IntFunction<Http.Response> guess = i -> http.post("/api/transfers", "{\"receiverPhone\":\""
                + bob.phone() + "\",\"amount\":1.00,\"pin\":\"" + String.format("%04d", i) + "\"}",
                "Authorization", auth, "Idempotency-Key", UUID.randomUUID().toString());

        var atOnce = Http.concurrently(60, guess).stream().map(Http.Response::status).toList();
        var oneByOne = java.util.stream.IntStream.range(0, 20).mapToObj(guess).map(Http.Response::status).toList();

        var all = java.util.stream.Stream.concat(atOnce.stream(), oneByOne.stream()).toList();
        assertThat(all).containsOnly(403, 429);
        assertThat(all.stream().filter(status -> status == 403).count()).as(all.toString()).isBetween(1L, 5L);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("10.00");
    }
}
