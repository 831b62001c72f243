package dev.perflab.login;

import java.util.ArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.testing.Http;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/**
 * What every login variant must do, against the real WireMock stub behind Toxiproxy and a real MariaDB.
 * Each subclass runs it with one client variant and says how that variant uses connections.
 */
abstract class LoginContract {

    /** A fresh student per run, inside the stub's user1..user100000 and apart from InterleavedLoginIT's range. */
    private static final AtomicInteger NEXT_USER =
            new AtomicInteger((int) Math.floorMod(System.nanoTime(), 50_000L) + 10_000);

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @Autowired
    MeterRegistry registry;

    /** Checks how many connections the variant opened for {@code calls} sequential logins. */
    abstract void assertConnectionUse(double opened, double requests, int calls);

    Http http() {
        return new Http(port);
    }

    static String freshLoginId() {
        return "user" + NEXT_USER.incrementAndGet();
    }

    /**
     * A fresh student who has never logged in: the test database outlives a run, so an earlier run may have made a
     * member of any id in the range, and a test that asserts "no member" must start from one that has none.
     */
    static String loginIdWithoutMember(JdbcTemplate jdbc) {
        for (int tries = 0; tries < 1_000; tries++) {
            String loginId = freshLoginId();
            if (memberRows(jdbc, loginId) == 0) {
                return loginId;
            }
        }
        throw new IllegalStateException("every student tried already has a member row: empty the test database's member table");
    }

    static int memberRows(JdbcTemplate jdbc, String loginId) {
        return jdbc.queryForObject("SELECT COUNT(*) FROM member WHERE login_id = ?", Integer.class, loginId);
    }

    static String credentials(String loginId, String password) {
        return "{\"loginId\":\"" + loginId + "\",\"password\":\"" + password + "\"}";
    }

    @Test
    void rightPasswordReturnsABearerTokenAndUpsertsTheMember() {
        String loginId = freshLoginId();
        var response = http().post("/api/auth/login", credentials(loginId, MEMBER_PASSWORD));

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().at("/tokenType").asString()).isEqualTo("Bearer");
        assertThat(response.json().at("/expiresIn").asLong()).isPositive();
        String token = response.json().at("/accessToken").asString();
        var me = http().get("/api/auth/me", "Authorization", "Bearer " + token).json();
        assertThat(me.at("/loginId").asString()).isEqualTo(loginId);
        assertThat(jdbc.queryForObject("SELECT name FROM member WHERE login_id = ?", String.class, loginId))
                .isEqualTo("Student " + loginId);
        assertThat(me.at("/memberId").asLong())
                .isEqualTo(jdbc.queryForObject("SELECT id FROM member WHERE login_id = ?", Long.class, loginId));
    }

    @Test
    void aSecondLoginKeepsTheSameMember() {
        String loginId = freshLoginId();
        long first = http().post("/api/auth/login", credentials(loginId, MEMBER_PASSWORD)).status();
        long second = http().post("/api/auth/login", credentials(loginId, MEMBER_PASSWORD)).status();
        assertThat(first).isEqualTo(200);
        assertThat(second).isEqualTo(200);
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM member WHERE login_id = ?", Integer.class, loginId)).isOne();
    }

    @Test
    void wrongPasswordIs401AndCreatesNoMember() {
        String loginId = loginIdWithoutMember(jdbc);
        var response = http().post("/api/auth/login", credentials(loginId, "not-the-password"));

        assertThat(response.status()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo("bad-credentials");
        assertThat(memberRows(jdbc, loginId)).isZero();
    }

    @Test
    void wrongPasswordLeavesAnExistingMemberUnchanged() {
        String loginId = freshLoginId();
        assertThat(http().post("/api/auth/login", credentials(loginId, MEMBER_PASSWORD)).status()).isEqualTo(200);
        var before = jdbc.queryForMap("SELECT * FROM member WHERE login_id = ?", loginId);

        assertThat(http().post("/api/auth/login", credentials(loginId, "wrong")).status()).isEqualTo(401);

        assertThat(jdbc.queryForMap("SELECT * FROM member WHERE login_id = ?", loginId)).isEqualTo(before);
    }

    @Test
    void malformedOrIncompleteBodiesAre400AndCreateNothing() {
        int members = jdbc.queryForObject("SELECT COUNT(*) FROM member", Integer.class);

        var malformed = http().post("/api/auth/login", "{\"loginId\": \"user1\", ");
        var blank = http().post("/api/auth/login", credentials("", MEMBER_PASSWORD));
        var missing = http().post("/api/auth/login", "{\"loginId\": \"user1\"}");

        assertThat(malformed.status()).isEqualTo(400);
        assertThat(malformed.json().at("/code").asString()).isEqualTo("malformed-body");
        assertThat(blank.status()).isEqualTo(400);
        assertThat(blank.json().at("/errors/loginId").isMissingNode()).isFalse();
        assertThat(missing.status()).isEqualTo(400);
        assertThat(missing.json().at("/errors/password").isMissingNode()).isFalse();
        assertThat(jdbc.queryForObject("SELECT COUNT(*) FROM member", Integer.class)).isEqualTo(members);
    }

    @Test
    void connectionsAreOpenedAsTheVariantPromises() {
        double opened = counter("perflab.login.http.connections.opened");
        double requests = counter("perflab.login.http.requests");
        int calls = 5;
        for (int i = 0; i < calls; i++) {
            assertThat(http().post("/api/auth/login", credentials(freshLoginId(), MEMBER_PASSWORD)).status()).isEqualTo(200);
        }
        assertConnectionUse(counter("perflab.login.http.connections.opened") - opened,
                counter("perflab.login.http.requests") - requests, calls);
    }

    @Test
    void callsInFlightAreCountedAsEachStarts() throws Exception {
        var inFlight = registry.get("perflab.login.http.in.flight").summary();
        long before = inFlight.count();
        int calls = 8;
        var start = new CountDownLatch(1);
        try (var pool = Executors.newFixedThreadPool(calls)) {
            var answers = new ArrayList<Future<Integer>>();
            for (int i = 0; i < calls; i++) {
                answers.add(pool.submit(() -> {
                    start.await();
                    return http().post("/api/auth/login", credentials(freshLoginId(), MEMBER_PASSWORD)).status();
                }));
            }
            start.countDown();
            for (var answer : answers) {
                assertThat(answer.get()).isIn(200, 503);  // 503: a variant whose pool is smaller than the burst
            }
        }
        // every call counted once, waiting for a connection or not; eight sent at once to an API a network hop away
        // overlap: the high-water mark sees it
        assertThat(inFlight.count() - before).isEqualTo(calls);
        assertThat(inFlight.max()).isGreaterThanOrEqualTo(2);
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }
}
