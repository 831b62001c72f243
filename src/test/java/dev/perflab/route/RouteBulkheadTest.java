package dev.perflab.route;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.support.problem.ApiException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/** The bulkhead lets {@code concurrency} requests in; one more waits, then gets 503 routes-busy with Retry-After. */
class RouteBulkheadTest {

    @Test
    void aRequestBeyondTheLimitWaitsThenIsTurnedAwayWith503() throws Exception {
        RouteKnobs knobs = new RouteKnobs(RouteKnobs.Cache.OFF, RouteKnobs.Layout.SINGLE, RouteKnobs.Codec.JACKSON,
                RouteKnobs.Writer.FASTJSON2, 2500,
                Duration.ofMinutes(30), Duration.ofSeconds(5), Duration.ofSeconds(30), 8, Duration.ofSeconds(5), 1,
                Duration.ofMillis(50), 2);
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RouteBulkhead bulkhead = new RouteBulkhead(knobs, registry);
        CountDownLatch inside = new CountDownLatch(1);
        CountDownLatch release = new CountDownLatch(1);
        CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> bulkhead.run(() -> {
            inside.countDown();
            await(release);
            return "first";
        }));
        inside.await();

        assertThat(registry.get("perflab.route.bulkhead.active").gauge().value()).isEqualTo(1);
        assertThatThrownBy(() -> bulkhead.run(() -> "second")).isInstanceOfSatisfying(ApiException.class, e -> {
            assertThat(e.status().value()).isEqualTo(503);
            assertThat(e.code()).isEqualTo("routes-busy");
            assertThat(e.headers().getFirst("Retry-After")).isEqualTo("1");
        });
        release.countDown();
        assertThat(first.get()).isEqualTo("first");
        assertThat(bulkhead.run(() -> "third")).isEqualTo("third");
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
