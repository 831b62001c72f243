package dev.perflab.login;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import dev.perflab.testing.IntegrationTest;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/**
 * The contract on {@code perflab.login.client=keep-alive} (the case study's baseline), with a 1 s keep-alive instead
 * of 20 s so that the window closes within the test: a call inside it reuses the connection, the first after it opens
 * a new one.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.login.client=keep-alive", "perflab.login.auth-api.keep-alive.duration=1s"})
class KeepAliveLoginIT extends LoginContract {

    @Override
    void assertConnectionUse(double opened, double requests, int calls) {
        assertThat(requests).isEqualTo(calls);
        assertThat(opened).as("sequential calls inside the keep-alive reuse one connection").isLessThanOrEqualTo(1);
    }

    @Test
    void aConnectionIsReusedInsideTheKeepAliveAndReplacedAfterIt() {
        // from an empty pool: another test of this class may have left connections kept (a burst keeps several)
        await().atMost(Duration.ofSeconds(5)).until(() -> pooled("available") == 0);
        login();
        double opened = opened();
        assertThat(pooled("available")).as("kept for the next call").isOne();

        login();
        assertThat(opened()).as("a call inside the keep-alive reuses the connection").isEqualTo(opened);

        await().atMost(Duration.ofSeconds(5)).until(() -> pooled("available") == 0);
        login();
        assertThat(opened()).as("the first call after the keep-alive opens a new one").isEqualTo(opened + 1);
    }

    private void login() {
        assertThat(http().post("/api/auth/login", credentials(freshLoginId(), MEMBER_PASSWORD)).status()).isEqualTo(200);
    }

    double opened() {
        return registry.get("perflab.login.http.connections.opened").counter().count();
    }

    double pooled(String state) {
        return registry.get("httpcomponents.httpclient.pool.total.connections").tag("state", state).gauge().value();
    }
}
