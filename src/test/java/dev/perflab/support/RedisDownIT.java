package dev.perflab.support;

import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.Toxiproxy;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.MapPropertySource;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/** With Redis gone (its Toxiproxy proxy cut), health says redis DOWN and the other endpoints still answer. */
@IntegrationTest
@ContextConfiguration(initializers = RedisDownIT.ThroughToxiproxy.class)
class RedisDownIT {

    private final Toxiproxy toxiproxy = new Toxiproxy();

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    private String admin;

    @AfterEach
    void restore() {
        toxiproxy.restore("redis");
    }

    @Test
    void healthReportsRedisDownWhileTheApiKeepsAnswering() {
        Http http = new Http(port);
        admin = "Bearer " + tokens.issue(1, "perflab-admin", java.util.List.of(TokenService.ADMIN)).accessToken();
        assertThat(http.get("/actuator/health", "Authorization", admin).json().at("/components/redis/status").asString()).isEqualTo("UP");

        toxiproxy.disable("redis");

        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() -> {
            var health = http.get("/actuator/health", "Authorization", admin);
            assertThat(health.status()).isEqualTo(503);
            assertThat(health.json().at("/components/redis/status").asString()).isEqualTo("DOWN");
            assertThat(health.json().at("/components/db/status").asString()).isEqualTo("UP");
        });
        var me = http.get("/api/auth/me", "Authorization", "Bearer " + tokens.issue(7, "user7").accessToken());
        assertThat(me.status()).isEqualTo(200);
        assertThat(http.get("/actuator/prometheus").status()).isEqualTo(200);

        toxiproxy.restore("redis");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(250)).untilAsserted(() ->
                assertThat(http.get("/actuator/health", "Authorization", admin).json().at("/components/redis/status").asString()).isEqualTo("UP"));
    }

    /** Points the app at the stack's Toxiproxy proxy for Redis (127.0.0.1:16379), after TestServices. */
    @Order(10)
    static class ThroughToxiproxy implements ApplicationContextInitializer<ConfigurableApplicationContext> {

        @Override
        public void initialize(ConfigurableApplicationContext context) {
            context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("redisThroughToxiproxy",
                    Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", 16379)));
        }
    }
}
