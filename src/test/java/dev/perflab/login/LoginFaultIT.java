package dev.perflab.login;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.Toxiproxy;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

import static dev.perflab.testing.TestCredentials.MEMBER_PASSWORD;

/** With no guard, a down or too-slow auth API still ends in a 503 with Retry-After, never a 500. */
@IntegrationTest
@TestPropertySource(properties = "perflab.login.auth-api.response-timeout=500ms")
class LoginFaultIT {

    private final Toxiproxy toxiproxy = new Toxiproxy();

    @LocalServerPort
    int port;

    @Autowired
    JdbcTemplate jdbc;

    @AfterEach
    void restore() {
        toxiproxy.restore("auth-api-https");
    }

    @Test
    void aDownAuthApiIs503WithRetryAfter() {
        toxiproxy.disable("auth-api-https");
        String loginId = LoginContract.loginIdWithoutMember(jdbc);

        var response = new Http(port).post("/api/auth/login", LoginContract.credentials(loginId, MEMBER_PASSWORD));

        assertUnavailable(response);
        assertThat(LoginContract.memberRows(jdbc, loginId)).isZero();
    }

    @Test
    void anAuthApiSlowerThanTheTimeoutIs503WithRetryAfter() {
        toxiproxy.addLatency("auth-api-https", 1500);

        var response = new Http(port).post("/api/auth/login", LoginContract.credentials(LoginContract.freshLoginId(), MEMBER_PASSWORD));

        assertUnavailable(response);
    }

    private static void assertUnavailable(Http.Response response) {
        assertThat(response.status()).isEqualTo(503);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo("auth-api-unavailable");
        assertThat(response.header("Retry-After")).isEqualTo("1");
    }
}
