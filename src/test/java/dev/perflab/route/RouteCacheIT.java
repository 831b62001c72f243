package dev.perflab.route;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.test.context.TestPropertySource;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** Cache-aside in Redis: batches and manifest, hits, versioned invalidation, corrupt values, and a racing update. */
@IntegrationTest
@TestPropertySource(properties = {"perflab.route.cache=redis", "perflab.route.layout=batched",
        "perflab.route.codec=fastjson2", "perflab.route.batch-size=4"})
class RouteCacheIT extends RouteTestSupport {

    static final long UNIV = 9201;
    static final String PREFIX = "route:fastjson2:{" + UNIV + "}:";

    @Autowired
    RouteCodec codec;
    long version;

    @BeforeEach
    void seed() {
        version = fixture().create(UNIV);
    }

    @Test
    void aMissStoresBatchesAndAManifestAndTheNextRequestHits() {
        double misses = count("perflab.route.cache.requests", "result", "miss");
        double hits = count("perflab.route.cache.requests", "result", "hit");

        JsonNode first = routes(UNIV).json();
        RedisTemplate<String, byte[]> redis = rawRedis();
        assertThat(new String(redis.opsForValue().get(PREFIX + "manifest"), StandardCharsets.US_ASCII)).isEqualTo(version + ":3:11");
        List<byte[]> batches = redis.opsForValue().multiGet(List.of(PREFIX + "batch:0", PREFIX + "batch:1", PREFIX + "batch:2"));
        assertThat(batches).doesNotContainNull();
        assertThat(batches.stream().mapToInt(b -> codec.decode(b).routes().size()).toArray()).containsExactly(4, 4, 3);
        assertThat(count("perflab.route.cache.requests", "result", "miss")).isEqualTo(misses + 1);

        JsonNode second = routes(UNIV).json();
        assertThat(count("perflab.route.cache.requests", "result", "hit")).isEqualTo(hits + 1);
        assertThat(second).isEqualTo(first);
        assertThat(second.get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
    }

    @Test
    void aChangeIsNeverAnsweredFromStaleBatches() {
        routes(UNIV);
        long route = RouteFixture.directRouteId(UNIV);

        assertThat(change(UNIV, route, "{\"distance\":123.25}").status()).isEqualTo(200);
        JsonNode body = routes(UNIV).json();

        assertThat(body.get("version").asLong()).isEqualTo(version + 1);
        assertThat(directDistance(body, UNIV)).isEqualTo(123.25);
        assertThat(new String(rawRedis().opsForValue().get(PREFIX + "manifest"), StandardCharsets.US_ASCII))
                .isEqualTo((version + 1) + ":3:11");
    }

    @Test
    void aCorruptValueIsEvictedReloadedAndCounted() {
        routes(UNIV);
        RedisTemplate<String, byte[]> redis = rawRedis();
        redis.opsForValue().set(PREFIX + "batch:1", "{\"univId\":".getBytes(StandardCharsets.UTF_8));
        double corrupt = count("perflab.route.cache.corrupt");

        Http.Response response = routes(UNIV);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(count("perflab.route.cache.corrupt")).isEqualTo(corrupt + 1);
        RouteBatch reloaded = codec.decode(redis.opsForValue().get(PREFIX + "batch:1"), UNIV, 1);
        assertThat(reloaded.version()).isEqualTo(version);
        assertThat(reloaded.routes()).hasSize(4);
    }

    @Test
    void aManifestPromisingMoreRoutesThanItsBatchesHoldIsAMissNotAPartialAnswer() {
        routes(UNIV);
        rawRedis().opsForValue().set(PREFIX + "manifest", (version + ":1:11").getBytes(StandardCharsets.US_ASCII));
        double misses = count("perflab.route.cache.requests", "result", "miss");

        JsonNode body = routes(UNIV).json();

        assertThat(body.get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(count("perflab.route.cache.requests", "result", "miss")).isEqualTo(misses + 1);
    }

    /** Redis is untrusted: a manifest announcing 2^31-1 batches once made an OutOfMemoryError that failed every request. */
    @Test
    void aManifestAnnouncingAnAbsurdNumberOfBatchesIsRejectedCountedAndServedFromTheDatabase() {
        routes(UNIV);
        rawRedis().opsForValue().set(PREFIX + "manifest", (version + ":2147483647:11").getBytes(StandardCharsets.US_ASCII));
        double rejected = count("perflab.route.cache.rejected");

        Http.Response response = routes(UNIV);

        assertThat(response.status()).isEqualTo(200);
        assertThat(response.json().get("routeCount").asInt()).isEqualTo(RouteFixture.ROUTES);
        assertThat(count("perflab.route.cache.rejected")).isEqualTo(rejected + 1);
        assertThat(new String(rawRedis().opsForValue().get(PREFIX + "manifest"), StandardCharsets.US_ASCII))
                .as("reloaded from the database").isEqualTo(version + ":3:11");
        assertThat(routes(UNIV).status()).isEqualTo(200);
    }

    @Test
    void anUpdateRacingReadsNeverYieldsAMixedVersionResponse() throws Exception {
        long route = RouteFixture.directRouteId(UNIV);
        double initial = dbDistance(route);
        int updates = 25;
        AtomicBoolean done = new AtomicBoolean();
        AtomicInteger reads = new AtomicInteger();
        ConcurrentLinkedQueue<String> mixed = new ConcurrentLinkedQueue<>();
        Set<Long> versionsSeen = java.util.concurrent.ConcurrentHashMap.newKeySet();
        try (ExecutorService pool = Executors.newFixedThreadPool(4)) {
            List<Future<?>> readers = java.util.stream.IntStream.range(0, 3).<Future<?>>mapToObj(i -> pool.submit(() -> {
                while (!done.get() || reads.get() < 10) {
                    JsonNode body = routesAs(UNIV, 1 + i).json(); // a member each: at most 2 reads per member
                    long v = body.get("version").asLong();
                    double expected = v == version ? initial : v - version; // update k sets distance k, version + k
                    double actual = directDistance(body, UNIV);
                    if (actual != expected || body.get("routeCount").asInt() != RouteFixture.ROUTES) {
                        mixed.add("version " + v + " served distance " + actual + ", expected " + expected);
                    }
                    versionsSeen.add(v);
                    reads.incrementAndGet();
                }
            })).toList();
            for (int k = 1; k <= updates; k++) {
                assertThat(change(UNIV, route, "{\"distance\":" + k + "}").status()).isEqualTo(200);
            }
            done.set(true);
            for (Future<?> reader : readers) {
                reader.get();
            }
        }
        assertThat(mixed).isEmpty();
        assertThat(versionsSeen).hasSizeGreaterThan(2); // the reads really did interleave with the updates
        assertThat(directDistance(routes(UNIV).json(), UNIV)).isEqualTo(updates);
    }
}
