package dev.perflab.login;

import java.time.Duration;
import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.Toxiproxy;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/** {@code perflab.login.guard=bulkhead}: the excess is rejected at once, and the circuit opens and closes. */
@IntegrationTest
@TestPropertySource(properties = {
        "perflab.login.guard=bulkhead",
        "perflab.login.client=pooled",
        "perflab.server.threads=virtual",
        "perflab.login.auth-api.response-timeout=500ms",
        "perflab.login.auth-api.bulkhead.max-concurrent-calls=2",
        "perflab.login.auth-api.bulkhead.sliding-window-size=4",
        "perflab.login.auth-api.bulkhead.minimum-number-of-calls=4",
        "perflab.login.auth-api.bulkhead.wait-duration-in-open-state=1s",
        "perflab.login.auth-api.bulkhead.permitted-calls-in-half-open-state=1"})
class BulkheadGuardIT {

    private final Toxiproxy toxiproxy = new Toxiproxy();

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Autowired
    MeterRegistry registry;

    @AfterEach
    void restore() {
        toxiproxy.restore("auth-api-https");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> login(LoginContract.freshLoginId()).status() == 200);
    }

    @Test
    void callsBeyondTheLimitAreRejectedAtOnceWith503() {
        String token = "Bearer " + tokens.issue(1, "perflab-admin", List.of(TokenService.ADMIN)).accessToken();
        List<Http.Response> responses = new Http(port).getConcurrently(6, "/api/lab/dependency?delayMs=200",
                "Authorization", token);
        List<Http.Response> rejected = responses.stream().filter(r -> r.status() == 503).toList();
        assertThat(responses.stream().filter(r -> r.status() == 200).count()).isBetween(2L, 4L);
        assertThat(rejected).isNotEmpty().allSatisfy(r -> {
            assertThat(r.json().at("/code").asString()).isEqualTo("auth-api-busy");
            assertThat(r.header("Retry-After")).isEqualTo("1");
        });
        assertThat(registry.get("perflab.login.guard.calls").tag("outcome", "rejected")
                .tag("dependency", "lab-dependency").counter().count()).isGreaterThanOrEqualTo(rejected.size());
        // the lab has a bulkhead of its own: a login goes through while the lab's is full
        assertThat(registry.get("perflab.login.guard.calls").tag("outcome", "rejected")
                .tag("dependency", "auth-api").counter().count()).isZero();
    }

    @Test
    void theCircuitOpensOnFailuresAnswersFastAndClosesWhenTheApiIsBack() {
        toxiproxy.disable("auth-api-https");

        await().atMost(Duration.ofSeconds(10)).pollInterval(Duration.ofMillis(50)).until(() ->
                login(LoginContract.freshLoginId()).json().at("/code").asString().equals("auth-api-circuit-open"));
        var open = login(LoginContract.freshLoginId());
        assertThat(open.status()).isEqualTo(503);
        assertThat(open.header("Retry-After")).isEqualTo("1");
        assertThat(circuitState("open")).isEqualTo(1.0);

        toxiproxy.restore("auth-api-https");
        await().atMost(Duration.ofSeconds(15)).pollInterval(Duration.ofMillis(200))
                .until(() -> login(LoginContract.freshLoginId()).status() == 200);
        assertThat(circuitState("closed")).isEqualTo(1.0);
    }

    private Http.Response login(String loginId) {
        return new Http(port).post("/api/auth/login", LoginContract.credentials(loginId, MEMBER_PASSWORD));
    }

    private double circuitState(String state) {
        return registry.get("resilience4j.circuitbreaker.state").tag("name", "auth-api").tag("state", state).gauge().value();
    }
}
