package dev.perflab.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import dev.perflab.route.codec.ForyRouteCodec;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The {@code route-binary} preset picks Fory; one knob overridden on top ({@code layout=single}) stores one key. */
@IntegrationTest
@ActiveProfiles("route-binary")
@TestPropertySource(properties = "perflab.route.layout=single")
class RouteBinarySingleLayoutIT extends RouteTestSupport {

    static final long UNIV = 9501;

    @Autowired
    RouteCodec codec;

    @Test
    void thePresetSetsTheKnobsAndTheSingleLayoutKeepsTheUniversityUnderOneKey() {
        assertThat(codec).isInstanceOf(ForyRouteCodec.class);
        String metrics = http().get("/actuator/prometheus").body();
        assertThat(metrics).contains("perflab_variant_info{feature=\"route\",knob=\"codec\",value=\"fory\",variant=\"route-binary\"} 1")
                .contains("perflab_variant_info{feature=\"route\",knob=\"cache\",value=\"redis\",variant=\"route-binary\"} 1")
                .contains("perflab_variant_info{feature=\"route\",knob=\"layout\",value=\"single\",variant=\"route-binary\"} 1");
        long version = fixture().create(UNIV);
        RedisTemplate<String, byte[]> redis = rawRedis();
        String prefix = "route:fory:{" + UNIV + "}:";
        redis.delete(java.util.List.of(prefix + "manifest", prefix + "batch:0")); // left by earlier runs, if any
        double hits = count("perflab.route.cache.requests", "result", "hit");

        assertThat(routes(UNIV).json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(routes(UNIV).json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);

        assertThat(new String(redis.opsForValue().get(prefix + "all:manifest"), StandardCharsets.US_ASCII))
                .isEqualTo(version + ":1:" + RouteFixture.ROUTES);
        assertThat(codec.decode(redis.opsForValue().get(prefix + "all"), UNIV, 0).routes()).hasSize(RouteFixture.ROUTES);
        assertThat(redis.hasKey(prefix + "batch:0")).isFalse();
        assertThat(redis.hasKey(prefix + "manifest")).as("the batched layout's manifest").isFalse();
        assertThat(count("perflab.route.cache.requests", "result", "hit")).isEqualTo(hits + 1);
    }
}
