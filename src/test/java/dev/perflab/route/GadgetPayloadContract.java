package dev.perflab.route;

import java.nio.charset.StandardCharsets;

import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisTemplate;

import dev.perflab.testing.Http;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The safety test of issue 5: a deserialization gadget payload planted in Redis, under the keys and manifest a
 * reader trusts, is rejected without loading or building any class, counted as corrupt, evicted, and the request
 * is answered from the database. Run once per JSON codec by its subclasses.
 */
abstract class GadgetPayloadContract extends RouteTestSupport {

    @Autowired
    RouteCodec codec;

    abstract long univId();

    /** Payloads for batches 0, 1 and 2, in the attack style of the codec under test. */
    abstract String[] gadgets();

    @Test
    void aGadgetPayloadIsRejectedNothingIsInstantiatedAndTheDatabaseAnswers() {
        long version = fixture().create(univId());
        String prefix = "route:" + codec.name() + ":{" + univId() + "}:";
        RedisTemplate<String, byte[]> redis = rawRedis();
        String[] gadgets = gadgets();
        for (int i = 0; i < gadgets.length; i++) {
            redis.opsForValue().set(prefix + "batch:" + i, gadgets[i].getBytes(StandardCharsets.UTF_8));
        }
        redis.opsForValue().set(prefix + "manifest", (version + ":" + gadgets.length + ":" + RouteFixture.ROUTES).getBytes(StandardCharsets.US_ASCII));
        double corrupt = count("perflab.route.cache.corrupt");
        double misses = count("perflab.route.cache.requests", "result", "miss");

        Http.Response response = routes(univId());

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(response.json().get("version").asLong()).isEqualTo(version);
        assertThat(GadgetProbe.initialized).as("Gadget class initialised").isFalse();
        assertThat(GadgetProbe.INSTANCES).as("Gadget instances").hasValue(0);
        assertThat(count("perflab.route.cache.corrupt")).isEqualTo(corrupt + 1);
        assertThat(count("perflab.route.cache.requests", "result", "miss")).isEqualTo(misses + 1);
        RouteBatch reloaded = codec.decode(redis.opsForValue().get(prefix + "batch:0"), univId(), 0);
        assertThat(reloaded.version()).isEqualTo(version);
    }
}
