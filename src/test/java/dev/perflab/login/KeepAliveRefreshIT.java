package dev.perflab.login;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.login.after.KeepAliveRefresh;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/**
 * {@code perflab.login.keep-alive-refresh=on} keeps the keep-alive client's connection past its keep-alive (2 s here,
 * a ping every 400 ms), and stops with no thread left behind.
 */
@IntegrationTest
@TestPropertySource(properties = {
        "perflab.login.client=keep-alive",
        "perflab.login.keep-alive-refresh=on",
        "perflab.login.auth-api.keep-alive.duration=2s",
        "perflab.login.auth-api.keep-alive.refresh-every=400ms",
        // every refresh checks the idle connection first, as a 15 s refresh does with the default 2 s
        "perflab.login.auth-api.pool.validate-after-inactivity=100ms"})
class KeepAliveRefreshIT {

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    @Autowired
    KeepAliveRefresh refresh;

    @Test
    void theRefreshKeepsTheConnectionPastTheKeepAlive() {
        login();
        double opened = counter("perflab.login.http.connections.opened");
        double refreshes = refreshes();

        await().during(Duration.ofSeconds(3)).atMost(Duration.ofSeconds(5))
                .until(() -> counter("perflab.login.http.connections.opened") == opened);
        assertThat(refreshes()).as("pings every 400 ms over 3 s").isGreaterThanOrEqualTo(refreshes + 5);
        assertThat(registry.get("perflab.login.keepalive.refresh").tag("outcome", "failed").counter().count()).isZero();

        // A login that meets a ping in flight finds the one kept connection leased and opens another (the Javadoc's
        // price); stopping the refresh waits for its ping, so the login meets the kept connection idle.
        refresh.stop();
        try {
            login();
        } finally {
            refresh.start();
        }
        assertThat(counter("perflab.login.http.connections.opened"))
                .as("the login after more than the keep-alive finds the connection open").isEqualTo(opened);
    }

    @Test
    void stopsWithNoThreadLeftAndStartsAgain() {
        refresh.stop();
        try {
            assertThat(refresh.isRunning()).isFalse();
            await().atMost(Duration.ofSeconds(2)).until(() -> Thread.getAllStackTraces().keySet().stream()
                    .noneMatch(thread -> thread.getName().equals("auth-api-keep-alive-refresh")));
            double refreshes = refreshes();
            await().during(Duration.ofSeconds(1)).atMost(Duration.ofSeconds(2)).until(() -> refreshes() == refreshes);
        } finally {
            refresh.start();
        }
        assertThat(refresh.isRunning()).isTrue();
    }

    private void login() {
        var response = new Http(port).post("/api/auth/login",
                LoginContract.credentials(LoginContract.freshLoginId(), MEMBER_PASSWORD));
        assertThat(response.status()).isEqualTo(200);
    }

    private double refreshes() {
        return registry.get("perflab.login.keepalive.refresh").tag("outcome", "ok").counter().count();
    }

    private double counter(String name) {
        return registry.get(name).counter().count();
    }
}
