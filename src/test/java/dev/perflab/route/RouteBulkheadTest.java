package dev.perflab.route;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.support.problem.ApiException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * The bulkhead lets {@code concurrency} requests in; one more waits, then gets 503 routes-busy with Retry-After.
 * With {@code concurrency = -1} it lets every request in.
 */
class RouteBulkheadTest {

    @Test
    void aRequestBeyondTheLimitWaitsThenIsTurnedAwayWith503() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RouteBulkhead bulkhead = new RouteBulkhead(knobs(1), registry);
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

    @Test
    void withoutALimitEveryRequestBuildsAtOnce() throws Exception {
        SimpleMeterRegistry registry = new SimpleMeterRegistry();
        RouteBulkhead bulkhead = new RouteBulkhead(knobs(-1), registry);
        int holders = 20;
        CountDownLatch inside = new CountDownLatch(holders);
        CountDownLatch release = new CountDownLatch(1);
        List<CompletableFuture<Integer>> held = new ArrayList<>();
        ExecutorService threads = Executors.newFixedThreadPool(holders);
        try {
            for (int i = 0; i < holders; i++) {
                int n = i;
                held.add(CompletableFuture.supplyAsync(() -> bulkhead.run(() -> {
                    inside.countDown();
                    await(release);
                    return n;
                }), threads));
            }
            assertThat(inside.await(10, TimeUnit.SECONDS)).as("all %d inside at once", holders).isTrue();
            assertThat(registry.get("perflab.route.bulkhead.active").gauge().value()).isEqualTo(holders);
            assertThat(bulkhead.run(() -> "one more")).isEqualTo("one more");
            release.countDown();
            for (int i = 0; i < holders; i++) {
                assertThat(held.get(i).get(10, TimeUnit.SECONDS)).isEqualTo(i);
            }
            assertThat(registry.get("perflab.route.bulkhead.active").gauge().value()).isZero();
        } finally {
            release.countDown();
            threads.shutdownNow();
        }
    }

    @Test
    void aLimitBelowMinusOneIsRefusedAtStartup() {
        assertThatThrownBy(() -> knobs(-2)).isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("perflab.route.concurrency");
    }

    private static RouteKnobs knobs(int concurrency) {
        return new RouteKnobs(RouteKnobs.Cache.OFF, RouteKnobs.Layout.SINGLE, RouteKnobs.Codec.JACKSON,
                RouteKnobs.Writer.FASTJSON2, 2500,
                Duration.ofMinutes(30), Duration.ofSeconds(5), Duration.ofSeconds(30), 8, Duration.ofSeconds(5),
                concurrency, Duration.ofMillis(50), 2, RouteKnobs.CacheRead.TOGETHER);
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await();
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
