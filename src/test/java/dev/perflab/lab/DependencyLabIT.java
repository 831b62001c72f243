package dev.perflab.lab;

import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;

import static org.assertj.core.api.Assertions.assertThat;

@IntegrationTest
class DependencyLabIT {

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Test
    void callsTheSlowDependencyAndReportsHowLongItTook() {
        var response = new Http(port).get("/api/lab/dependency?delayMs=100", "Authorization", bearer());
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().at("/delayMs").asInt()).isEqualTo(100);
        assertThat(response.json().at("/tookMs").asLong()).isGreaterThanOrEqualTo(100);
    }

    @Test
    void aDelayTheStubDoesNotServeIsA400() {
        var response = new Http(port).get("/api/lab/dependency?delayMs=7", "Authorization", bearer());
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.json().at("/code").asString()).isEqualTo("invalid-parameter");
    }

    @Test
    void aNonNumericDelayIsA400() {
        var response = new Http(port).get("/api/lab/dependency?delayMs=soon", "Authorization", bearer());
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
    }

    private String bearer() {
        return "Bearer " + tokens.issue(1, "perflab-admin", java.util.List.of(TokenService.ADMIN)).accessToken(); // admin only
    }
}
