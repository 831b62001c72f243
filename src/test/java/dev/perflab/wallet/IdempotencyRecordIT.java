package dev.perflab.wallet;

import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.UUID;

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

/** Issue 14, finding 5: the idempotency record gave the PIN back to anyone who could read the table. */
@IntegrationTest
@Import(WalletSideDatabase.class)
@ActiveProfiles("wallet-after")
class IdempotencyRecordIT {

    @LocalServerPort
    int port;
    @Autowired
    TokenService tokens;
    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    dev.perflab.wallet.Pins pins;

    @Test
    void tenThousandGuessesOverTheStoredRequestHashDoNotFindThePin() throws Exception {
        WalletFixtures fixtures = new WalletFixtures(jdbc, pins);
        var alice = fixtures.account("100.00");
        var bob = fixtures.account("0.00");
        String key = UUID.randomUUID().toString();
        String body = "{\"receiverPhone\":\"" + bob.phone() + "\",\"amount\":1.00,\"pin\":\"1234\"}";
        String[] headers = {"Authorization", "Bearer " + tokens.issue(alice.id(), "user" + alice.id()).accessToken(),
                "Idempotency-Key", key};
        assertThat(new Http(port).post("/api/transfers", body, headers).status()).isEqualTo(201);
        String stored = jdbc.queryForObject("SELECT request_hash FROM idempotency_key WHERE member_id = ? AND idem_key = ?",
                String.class, alice.id(), key);

        MessageDigest sha256 = MessageDigest.getInstance("SHA-256");
        String found = null;
        for (int pin = 0; pin < 10_000 && found == null; pin++) {
            String guess = String.format("%04d", pin);
            for (String text : new String[] {bob.phone() + "|1.00|" + guess, guess, alice.id() + ":" + guess}) {
                if (HexFormat.of().formatHex(sha256.digest(text.getBytes(StandardCharsets.UTF_8))).equals(stored)) {
                    found = guess;
                }
            }
        }

        assertThat(found).as("a PIN recovered from the stored request hash").isNull();
        assertThat(stored).hasSize(64);
        var replay = new Http(port).post("/api/transfers", body, headers);
        assertThat(replay.header("Idempotent-Replayed")).isEqualTo("true");
        var otherPin = new Http(port).post("/api/transfers", body.replace("1234", "4321"), headers);
        assertThat(otherPin.status()).isEqualTo(422);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("99.00");
    }
}
