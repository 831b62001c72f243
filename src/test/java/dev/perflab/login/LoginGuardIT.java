package dev.perflab.login;

import java.util.ArrayList;
import java.util.List;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/**
 * Password guessing against the stub: after 5 failed logins for one login id (the default, without the pauses so the
 * test need not wait), that id is refused with 429 and Retry-After, also with the right password and also written
 * as {@code User…}; another member's right-password login from the same address still succeeds; Redis holds
 * neither the login id nor the address, and no table changed.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.security.login-guard.max-failures-per-login=5",
        "perflab.security.login-guard.free-failures-per-login=4", "perflab.security.login-guard.base-backoff=0s"})
class LoginGuardIT {

    @LocalServerPort
    int port;
    @Autowired
    JdbcTemplate jdbc;
    @Autowired
    MeterRegistry registry;
    @Autowired
    StringRedisTemplate redis;

    /**
     * Reserve, then verify: 120 wrong passwords for one login id sent at once get at most 5 checks (401) and 429 for
     * the rest; before the fix 100 were checked.
     */
    @Test
    void wrongPasswordsSentAtOnceAreCheckedAtMostFiveTimes() {
        Http http = new Http(port);
        String victim = "guard-victim-" + java.util.UUID.randomUUID(); // the stub refuses it: no account to lock

        java.util.Map<Integer, Long> statuses = Http.concurrently(120, i -> http.post("/api/auth/login",
                LoginContract.credentials(victim, "guess-" + i))).stream()
                .collect(java.util.stream.Collectors.groupingBy(Http.Response::status, java.util.stream.Collectors.counting()));

        assertThat(statuses.keySet()).as(statuses.toString()).containsOnly(401, 429);
        assertThat(statuses.get(401)).as(statuses.toString()).isBetween(1L, 5L);
        assertThat(redis.keys("guess:login-id:*:fails")).allSatisfy(key ->
                assertThat(redis.getExpire(key)).as(key + " TTL").isPositive());
    }

    @Test
    void fiveWrongPasswordsLockTheLoginIdForItsWindowButNotTheOtherMembers() {
        Http http = new Http(port);
        String victim = LoginContract.loginIdWithoutMember(jdbc);
        String other = LoginContract.freshLoginId();
        double refusedBefore = registry.get("perflab.guard.refusals").tag("guard", "login-id").counter().count();
        List<Integer> answers = new ArrayList<>();
        for (int i = 0; i < 5; i++) {
            answers.add(http.post("/api/auth/login", LoginContract.credentials(victim, "guess-" + i)).status());
        }

        Http.Response locked = http.post("/api/auth/login", LoginContract.credentials(victim, MEMBER_PASSWORD));
        Http.Response variant = http.post("/api/auth/login", LoginContract.credentials(" U" + victim.substring(1), "x"));

        assertThat(answers).containsOnly(401);
        assertThat(locked.status()).isEqualTo(429);
        assertThat(locked.contentType()).startsWith("application/problem+json");
        assertThat(locked.json().at("/code").asString()).isEqualTo("too-many-login-failures");
        assertThat(Long.parseLong(locked.header("Retry-After"))).isGreaterThan(800L);
        assertThat(variant.status()).isEqualTo(429);
        assertThat(http.post("/api/auth/login", LoginContract.credentials(other, MEMBER_PASSWORD)).status()).isEqualTo(200);
        assertThat(registry.get("perflab.guard.refusals").tag("guard", "login-id").counter().count())
                .isEqualTo(refusedBefore + 2);
        assertThat(redis.keys("guess:*" + victim + "*")).isEmpty();
        assertThat(redis.keys("guess:*127.0.0.1*")).isEmpty();
        assertThat(LoginContract.memberRows(jdbc, victim)).isZero();
    }
}
