package dev.perflab.support.security.guard;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;

import static org.assertj.core.api.Assertions.assertThat;
import static org.mockito.ArgumentMatchers.anyList;
import static org.mockito.ArgumentMatchers.anyLong;
import static org.mockito.Mockito.mock;
import static org.mockito.Mockito.never;
import static org.mockito.Mockito.verify;
import static org.mockito.Mockito.when;

/**
 * Which store counts a try when Redis misbehaves (the stores are mocked: this is the counter's choice alone; the
 * stores themselves are tested against real Redis and MariaDB in SharedFallbackIT and the abuse suite).
 */
class GuessCounterTest {

    private final Guess password = new Guess("login", "login:user1", new GuessPolicy(5, 2, Duration.ofMinutes(15), Duration.ofSeconds(1)));
    private final RedisGuessStore redis = mock(RedisGuessStore.class);
    private final SqlGuessStore sql = mock(SqlGuessStore.class);
    private final AtomicLong now = new AtomicLong(1_000_000);
    private final GuessCounter counter = new GuessCounter(redis, sql, new LocalGuessStore(),
            new GuardMetrics(new SimpleMeterRegistry()), () -> now.addAndGet(100));

    private Reservation countedInSql() {
        return Reservation.counted(List.of(password), List.of(new Reservation.Counted(1, now.get() + 60_000)),
                Reservation.Store.SHARED_SQL);
    }

    @Test
    void aRedisTimeoutRefusesTheTryInsteadOfStartingASecondCountInMariaDb() {
        when(redis.reserve(anyList(), anyLong())).thenThrow(new QueryTimeoutException("Redis command timed out"));

        Reservation reservation = counter.reserve(List.of(password));

        assertThat(reservation.refusal()).isPresent();
        assertThat(reservation.store()).isEqualTo(Reservation.Store.REDIS);
        verify(sql, never()).reserve(anyList(), anyLong());
        assertThat(counter.store()).isEqualTo(Reservation.Store.REDIS);
    }

    @Test
    void timeoutsThatGoOnPastTheSkipTimeMoveTheCountToMariaDb() {
        when(redis.reserve(anyList(), anyLong())).thenThrow(new QueryTimeoutException("Redis command timed out"));
        when(sql.reserve(anyList(), anyLong())).thenReturn(countedInSql());

        counter.reserve(List.of(password));
        now.addAndGet(GuessCounter.SKIP_MS);
        Reservation reservation = counter.reserve(List.of(password));

        assertThat(reservation.refusal()).isEmpty();
        assertThat(reservation.store()).isEqualTo(Reservation.Store.SHARED_SQL);
    }

    @Test
    void redisUnreachableMovesTheCountToMariaDbAtOnce() {
        when(redis.reserve(anyList(), anyLong())).thenThrow(new RedisConnectionFailureException("connection refused"));
        when(sql.reserve(anyList(), anyLong())).thenReturn(countedInSql());

        Reservation reservation = counter.reserve(List.of(password));

        assertThat(reservation.refusal()).isEmpty();
        assertThat(reservation.store()).isEqualTo(Reservation.Store.SHARED_SQL);
    }
}
