package dev.perflab.wallet;

import java.util.UUID;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;

import dev.perflab.PerflabApplication;
import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.TestServices;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ActiveProfiles;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two app instances on one MariaDB and one Redis (preset wallet-after): this test's app is instance 1, and a second
 * application context, with its own in-app caches, is instance 2. The phone cache is write-through in Redis, so its
 * promise is "at once": a phone changed through instance 1 is the receiver of the very next transfer through
 * instance 2, and the old number is unknown there too. Ledger codes, the one in-app cache, never change.
 */
@IntegrationTest
@ActiveProfiles("wallet-after")
@Import(WalletSideDatabase.class)
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class TwoInstancesIT {

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    Pins pins;

    private ConfigurableApplicationContext second;
    private WalletFixtures fixtures;

    @BeforeAll
    void startTheSecondInstance() {
        // the same services and database as instance 1's (TestServices, and WalletSideDatabase's <test database>_after)
        second = new SpringApplicationBuilder(PerflabApplication.class, WalletSideDatabase.class)
                .profiles("wallet-after")
                .initializers(new TestServices())
                .run("--server.port=0");
    }

    @AfterAll
    void stopTheSecondInstance() {
        if (second != null) {
            second.close();
        }
    }

    @BeforeEach
    void setUp() {
        fixtures = new WalletFixtures(jdbc, pins);
    }

    @Test
    void aPhoneChangedThroughOneInstanceIsTheReceiverOfTheNextTransferThroughTheOther() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        Http one = new Http(port);
        Http two = new Http(((WebServerApplicationContext) second).getWebServer().getPort());
        // instance 2 caches bob's current number first
        assertThat(transfer(two, alice, bob.phone()).status()).isEqualTo(201);
        String newPhone = "08" + bob.phone().substring(2);

        var changed = one.put("/api/members/me/phone", "{\"phone\":\"" + newPhone + "\"}", "Authorization", token(bob));

        assertThat(changed.status()).isEqualTo(200);
        var toNew = transfer(two, alice, newPhone);
        assertThat(toNew.status()).isEqualTo(201);
        var toOld = transfer(two, alice, bob.phone());
        assertThat(toOld.status()).isEqualTo(404);
        assertThat(toOld.json().at("/code").asString()).isEqualTo("receiver-not-found");
        assertThat(fixtures.balance(bob.id())).isEqualByComparingTo("2.00");
    }

    private Http.Response transfer(Http instance, WalletFixtures.Account from, String phone) {
        return instance.post("/api/transfers", "{\"receiverPhone\":\"" + phone + "\",\"amount\":1.00,\"pin\":\"1234\"}",
                "Authorization", token(from), "Idempotency-Key", UUID.randomUUID().toString());
    }

    private String token(WalletFixtures.Account account) {
        return "Bearer " + tokens.issue(account.id(), "user" + account.id()).accessToken();
    }
}
