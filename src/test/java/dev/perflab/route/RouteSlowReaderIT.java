package dev.perflab.route;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import io.micrometer.core.instrument.search.Search;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.TestPropertySource;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Issue 46, finding 6: a route request held one of the bulkhead's permits while it wrote its answer, so clients that
 * read slowly held them all and every other route request waited up to {@code concurrency-wait} (measured: 58.8 s).
 * Four permits, as on the two-core machine of the finding, and a university as big as the seeded ones.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.route.concurrency=4", "perflab.route.member-concurrency=2"})
class RouteSlowReaderIT extends RouteTestSupport {

    static final long BIG = 9301;
    static final long SMALL = 9302;
    static final String PATH = "/api/universities/" + BIG + "/routes";
    static final Duration BOUND = Duration.ofSeconds(10);

    @BeforeEach
    void seed() {
        BigUniversity.ensure(jdbc, BIG);
        fixture().create(SMALL);
    }

    @Test
    void sixTrickleReadersDoNotDelayAnotherMembersRead() throws Exception {
        try (SlowReaders slow = SlowReaders.open(port, PATH, 6, i -> bearer(7100 + i))) {
            // before the fix only the four holding a permit got this far; now all six are being written to
            await().atMost(Duration.ofSeconds(60)).until(() -> slow.statusLines().size() >= 4);
            long started = System.nanoTime();

            CompletableFuture<Http.Response> other = CompletableFuture.supplyAsync(() -> routesAs(BIG, 7200));
            CompletableFuture<Http.Response> health = CompletableFuture.supplyAsync(() -> http().get("/actuator/health"));

            assertThat(other).succeedsWithin(BOUND).satisfies(r -> {
                assertThat(r.status()).isEqualTo(200);
                assertThat(r.json().get("routeCount").asInt()).isEqualTo(BigUniversity.ROUTES);
            });
            System.out.printf("another member's route read with six trickle readers: %.1f s%n",
                    (System.nanoTime() - started) / 1e9);
            assertThat(health).succeedsWithin(BOUND).satisfies(r -> assertThat(r.status()).isEqualTo(200));
            assertThat(slow.statusLines()).hasSize(6).allSatisfy(line -> assertThat(line).isEqualTo("HTTP/1.1 200"));
            assertThat(gauge("perflab.route.reads.in.flight")).isGreaterThanOrEqualTo(6); // still stalled
            assertThat(gauge("perflab.route.bulkhead.active")).isZero(); // and none of them holds a permit
        }
    }

    @Test
    void aMemberWithTwoReadsInFlightGets429WithRetryAfterAndOthersAreServed() throws Exception {
        long member = 7300;
        try (SlowReaders slow = SlowReaders.open(port, PATH, 2, i -> bearer(member))) {
            await().atMost(Duration.ofSeconds(60)).until(() -> slow.statusLines().size() == 2);

            Http.Response third = routesAs(BIG, member);

            assertThat(third.status()).isEqualTo(429);
            assertThat(third.contentType()).startsWith("application/problem+json");
            assertThat(third.json().get("code").asString()).isEqualTo("too-many-route-reads");
            assertThat(third.header("Retry-After")).isEqualTo("1");
            assertThat(routesAs(BIG, member + 1).status()).isEqualTo(200);
        }
        // the closed sockets fail their writes, which gives the member's slots back
        await().atMost(Duration.ofSeconds(30)).until(() -> routesAs(SMALL, member).status() == 200);
    }

    private String bearer(long memberId) {
        return authAs(memberId)[1];
    }

    private double gauge(String name) {
        return Search.in(registry).name(name).gauges().stream().mapToDouble(g -> g.value()).sum();
    }
}
