package dev.perflab.route;

import java.io.IOException;
import java.time.Duration;
import java.util.Map;

import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.data.redis.connection.RedisPassword;
import org.springframework.data.redis.connection.RedisStandaloneConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.test.context.TestPropertySource;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.TestServices;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Redis goes down (the app reaches it through a {@link TcpProxy} that the test cuts): routes are still served, from
 * the database, degraded and counted, with no 5xx; when Redis is back, requests hit the cache again.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.route.cache=redis", "perflab.route.layout=batched",
        "perflab.route.codec=fastjson2", "perflab.route.batch-size=4", "perflab.route.redis-retry-after=200ms",
        "perflab.route.redis-timeout=300ms"})
class RedisDownIT extends RouteTestSupport {

    static final long UNIV = 9401;
    static final TcpProxy PROXY = proxy();

    @TestConfiguration(proxyBeanMethods = false)
    static class ThroughTheProxy {

        /** Replaces Boot's connection factory: the same Redis and database, reached through the proxy. */
        @Bean
        LettuceConnectionFactory redisConnectionFactory(@Value("${spring.data.redis.password:}") String password) {
            Map<String, Object> services = TestServices.properties();
            RedisStandaloneConfiguration server = new RedisStandaloneConfiguration("127.0.0.1", PROXY.port());
            server.setPassword(RedisPassword.of(password)); // the native Redis requires the install's (none: none)
            server.setDatabase(Integer.parseInt(String.valueOf(services.getOrDefault("spring.data.redis.database", 0))));
            return new LettuceConnectionFactory(server,
                    LettuceClientConfiguration.builder().commandTimeout(Duration.ofMillis(300)).build());
        }
    }

    @AfterAll
    static void closeProxy() throws IOException {
        PROXY.close();
    }

    @Test
    void whenRedisIsDownTheDatabaseAnswersAndTheCacheComesBack() throws IOException {
        long version = fixture().create(UNIV);
        assertThat(routes(UNIV).status()).isEqualTo(200); // fills the cache
        double degraded = count("perflab.route.cache.requests", "result", "degraded");
        double failures = count("perflab.route.redis.failures");

        PROXY.cut();
        for (int i = 0; i < 3; i++) {
            Http.Response response = routes(UNIV);
            assertThat(response.status()).isEqualTo(200);
            assertThat(response.json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
            assertThat(response.json().get("version").asLong()).isEqualTo(version);
        }
        assertThat(count("perflab.route.cache.requests", "result", "degraded")).isEqualTo(degraded + 3);
        assertThat(count("perflab.route.redis.failures")).isGreaterThan(failures);

        PROXY.restore();
        double hits = count("perflab.route.cache.requests", "result", "hit");
        await().atMost(Duration.ofSeconds(20)).pollInterval(Duration.ofMillis(100)).untilAsserted(() -> {
            assertThat(routes(UNIV).status()).isEqualTo(200);
            assertThat(count("perflab.route.cache.requests", "result", "hit")).isGreaterThan(hits);
        });
    }

    private static TcpProxy proxy() {
        Map<String, Object> services = TestServices.properties();
        try {
            return new TcpProxy(String.valueOf(services.get("spring.data.redis.host")),
                    Integer.parseInt(String.valueOf(services.get("spring.data.redis.port"))));
        } catch (IOException e) {
            throw new IllegalStateException(e);
        }
    }
}
