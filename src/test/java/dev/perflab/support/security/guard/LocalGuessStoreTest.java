package dev.perflab.support.security.guard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** The fallback while Redis is down counts as the Redis script does: reserved before checked, bounded at once. */
class LocalGuessStoreTest {

    private final LocalGuessStore store = new LocalGuessStore();
    private final Guess pin = new Guess("pin", "pin:test:1", new GuessPolicy(5, 2, Duration.ofHours(1), Duration.ofSeconds(1)));

    @Test
    void triesReservedAtOnceAreBoundedByTheLimit() throws InterruptedException {
        ConcurrentLinkedQueue<Reservation> reservations = new ConcurrentLinkedQueue<>();
        CountDownLatch start = new CountDownLatch(1);
        try (ExecutorService pool = Executors.newFixedThreadPool(32)) {
            for (int i = 0; i < 200; i++) {
                pool.submit(() -> {
                    start.await();
                    return reservations.add(store.reserve(List.of(pin), System.currentTimeMillis()));
                });
            }
            start.countDown();
        }

        assertThat(reservations).hasSize(200);
        assertThat(reservations.stream().filter(r -> r.refusal().isEmpty())).hasSize(5);
    }

    @Test
    void aRightTryIsHandedBackAndAWrongOnePausesAsThePolicySays() {
        long now = System.currentTimeMillis(); // the store expires its entries by the wall clock
        for (int i = 0; i < 10; i++) {
            store.release(store.reserve(List.of(pin), now), now);
        }
        Reservation first = store.reserve(List.of(pin), now);
        assertThat(first.counts()).extracting(Reservation.Counted::count).containsExactly(1L);
        store.failed(first, now);
        Reservation second = store.reserve(List.of(pin), now);
        store.failed(second, now);
        Reservation third = store.reserve(List.of(pin), now);
        store.failed(third, now);

        Reservation paused = store.reserve(List.of(pin), now + 500);

        assertThat(third.counts()).extracting(Reservation.Counted::count).containsExactly(3L);
        assertThat(paused.refusal()).hasValueSatisfying(refusal -> assertThat(refusal.untilMs()).isEqualTo(now + 1000));
        assertThat(store.reserve(List.of(pin), now + 1000).refusal()).isEmpty();
    }
}
