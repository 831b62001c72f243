package dev.perflab.support;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;

import org.junit.jupiter.api.Test;

import dev.perflab.support.security.JwtProperties;
import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.annotation.Import;
import org.springframework.security.oauth2.jwt.JwtEncoder;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

import static org.assertj.core.api.Assertions.assertThat;

@IntegrationTest
@Import(FoundationIT.EchoConfiguration.class)
class FoundationIT {

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Autowired
    JwtEncoder encoder;

    @Autowired
    JwtProperties jwt;

    Http http() {
        return new Http(port);
    }

    @Test
    void healthReportsDatabaseAndRedisUp() {
        var health = http().get("/actuator/health", "Authorization", adminBearer()).json(); // details: admins only
        assertThat(health.at("/status").asString()).isEqualTo("UP");
        assertThat(health.at("/components/db/status").asString()).isEqualTo("UP");
        assertThat(health.at("/components/redis/status").asString()).isEqualTo("UP");
    }

    @Test
    void prometheusShowsTheVariantGaugeAndTagsServerMetricsWithTheVariant() {
        http().get("/actuator/health");
        String metrics = http().get("/actuator/prometheus").body();
        assertThat(metrics).containsPattern(
                "perflab_variant_info\\{feature=\"server\",knob=\"threads\",value=\"platform\",variant=\"default\"} 1");
        assertThat(metrics).containsPattern("http_server_requests_seconds_count\\{[^}]*variant=\"default\"[^}]*} \\d+");
        assertThat(metrics).contains("hikaricp_connections_max{pool=\"perflab\",variant=\"default\"}");
        var info = http().get("/actuator/info").json();
        assertThat(info.at("/perflab/variant").asString()).isEqualTo("default");
        assertThat(info.at("/perflab/knobs/server.threads").asString()).isEqualTo("platform");
    }

    @Test
    void apiRejectsAMissingTokenWithProblemJson() {
        var response = http().get("/api/auth/me");
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo("unauthorized");
    }

    @Test
    void apiAcceptsAValidToken() {
        String token = tokens.issue(42, "user42").accessToken();
        var response = http().get("/api/auth/me", "Authorization", "Bearer " + token);
        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().at("/memberId").asLong()).isEqualTo(42);
        assertThat(response.json().at("/loginId").asString()).isEqualTo("user42");
    }

    @Test
    void apiRejectsAnExpiredToken() {
        Clock twoHoursAgo = Clock.fixed(Instant.now().minus(Duration.ofHours(2)), ZoneOffset.UTC);
        String expired = new TokenService(encoder, jwt, twoHoursAgo).issue(42, "user42").accessToken();
        var response = http().get("/api/auth/me", "Authorization", "Bearer " + expired);
        assertThat(response.status()).isEqualTo(401);
        assertThat(response.contentType()).startsWith("application/problem+json");
    }

    @Test
    void apiRejectsATamperedToken() {
        String token = tokens.issue(42, "user42").accessToken();
        String[] parts = token.split("\\.");
        String forgedPayload = java.util.Base64.getUrlEncoder().withoutPadding().encodeToString(
                new String(java.util.Base64.getUrlDecoder().decode(parts[1])).replace("\"42\"", "\"43\"").getBytes());
        String tampered = parts[0] + "." + forgedPayload + "." + parts[2];
        assertThat(tampered).isNotEqualTo(token);
        var response = http().get("/api/auth/me", "Authorization", "Bearer " + tampered);
        assertThat(response.status()).isEqualTo(401);
    }

    @Test
    void aMalformedBodyIsA400ProblemWithAStableCode() {
        String token = tokens.issue(1, "user1").accessToken();
        var response = http().post("/api/test/echo", "{\"text\": ", "Authorization", "Bearer " + token);
        assertThat(response.status()).isEqualTo(400);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo("malformed-body");
        assertThat(response.json().at("/type").asString()).isEqualTo("urn:perflab:problem:malformed-body");
        assertThat(response.body()).doesNotContain("Exception").doesNotContain("at dev.perflab");
    }

    @Test
    void anUnknownPathIsA404Problem() {
        String token = tokens.issue(1, "user1").accessToken();
        var response = http().get("/api/no-such-thing", "Authorization", "Bearer " + token);
        assertThat(response.status()).isEqualTo(404);
        assertThat(response.contentType()).startsWith("application/problem+json");
        assertThat(response.json().at("/code").asString()).isEqualTo("not-found");
    }

    @Test
    void anUnexpectedErrorIsA500ProblemWithoutInternals() {
        String token = tokens.issue(1, "user1").accessToken();
        var response = http().post("/api/test/echo", "{\"text\": \"boom\"}", "Authorization", "Bearer " + token);
        assertThat(response.status()).isEqualTo(500);
        assertThat(response.json().at("/code").asString()).isEqualTo("internal");
        assertThat(response.body()).doesNotContain("IllegalStateException").doesNotContain("secret detail");
    }

    @TestConfiguration
    static class EchoConfiguration {

        @RestController
        static class EchoController {

            @PostMapping("/api/test/echo")
            Echo echo(@RequestBody Echo echo) {
                if (echo.text().equals("boom")) {
                    throw new IllegalStateException("secret detail");
                }
                return echo;
            }
        }

        record Echo(String text) {
        }
    }

    private String adminBearer() {
        return "Bearer " + tokens.issue(1, "perflab-admin", java.util.List.of(TokenService.ADMIN)).accessToken();
    }
}
