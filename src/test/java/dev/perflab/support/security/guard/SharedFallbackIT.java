package dev.perflab.support.security.guard;

import java.time.Duration;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.NoRedis;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.test.context.ContextConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * While Redis is down, the guards count in MariaDB, which every instance shares: tries sent at once to three
 * instances (three counters, each with its own local store) are checked at most {@code max-failures} times in all,
 * not that many per instance. Before this store each instance counted alone: 3 × 5 checks.
 */
@IntegrationTest
@ContextConfiguration(initializers = NoRedis.class)
class SharedFallbackIT {

    private static final GuessPolicy POLICY = new GuessPolicy(5, 2, Duration.ofHours(1), Duration.ofSeconds(1));

    @Autowired
    RedisGuessStore redis;
    @Autowired
    SqlGuessStore sql;
    @Autowired
    GuardMetrics metrics;
    @Autowired
    JdbcTemplate jdbc;

    @Test
    void triesAtOnceAcrossInstancesAreBoundedOnceWhileRedisIsDown() throws InterruptedException {
        Guess pin = new Guess("pin", "pin:shared:" + UUID.randomUUID(), POLICY);
        List<GuessCounter> instances = List.of(instance(), instance(), instance());
        ConcurrentLinkedQueue<Reservation> reservations = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(24)) {
            for (int i = 0; i < 120; i++) {
                GuessCounter counter = instances.get(i % instances.size());
                pool.submit(() -> {
                    start.await();
                    Reservation reservation = counter.reserve(List.of(pin));
                    counter.failed(reservation); // every guess is wrong
                    return reservations.add(reservation);
                });
            }
            start.countDown();
        }

        assertThat(reservations).hasSize(120);
        assertThat(reservations.stream().filter(r -> r.refusal().isEmpty())).hasSizeBetween(1, 5);
        assertThat(reservations).allMatch(r -> r.store() == Reservation.Store.SHARED_SQL);
        assertThat(jdbc.queryForObject("SELECT blocked_until_ms FROM guard_guess WHERE guess_key = ?", Long.class,
                pin.key())).isGreaterThan(System.currentTimeMillis());
    }

    @Test
    void aRightTryIsHandedBack() {
        Guess pin = new Guess("pin", "pin:shared:" + UUID.randomUUID(), POLICY);
        GuessCounter counter = instance();

        for (int i = 0; i < 20; i++) {
            Reservation reservation = counter.reserve(List.of(pin));
            assertThat(reservation.refusal()).isEmpty();
            counter.release(reservation);
        }

        assertThat(jdbc.queryForObject("SELECT fails FROM guard_guess WHERE guess_key = ?", Integer.class, pin.key()))
                .isZero();
    }

    private GuessCounter instance() {
        return new GuessCounter(redis, sql, new LocalGuessStore(), metrics);
    }
}
