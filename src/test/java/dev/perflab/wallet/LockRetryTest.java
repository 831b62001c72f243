package dev.perflab.wallet;

import java.math.BigDecimal;
import java.sql.SQLException;
import java.sql.SQLTransactionRollbackException;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.support.problem.ApiException;

import org.springframework.dao.CannotAcquireLockException;
import org.springframework.dao.DataIntegrityViolationException;
import org.springframework.http.HttpHeaders;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

class LockRetryTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final LockRetry retry = new LockRetry(new WalletKnobs(WalletKnobs.Transfer.NAIVE,
            WalletKnobs.Cache.OFF, WalletKnobs.Index.NON_UNIQUE,
            WalletKnobs.RedisClient.LETTUCE, 16, new BigDecimal("100"), 3,
            Duration.ofHours(1), Duration.ofHours(1), "1234"), registry);

    static RuntimeException deadlock() {
        return new CannotAcquireLockException("deadlock", new SQLTransactionRollbackException(
                "Deadlock found when trying to get lock; try restarting transaction", "40001", 1213));
    }

    static RuntimeException lockWaitTimeout() {
        return new CannotAcquireLockException("timeout", new SQLException("Lock wait timeout exceeded", "HY000", 1205));
    }

    @Test
    void aDeadlockVictimRunsAgainAndIsCounted() {
        AtomicInteger runs = new AtomicInteger();

        String result = retry.run(() -> {
            if (runs.incrementAndGet() == 1) {
                throw deadlock();
            }
            return "done";
        });

        assertThat(result).isEqualTo("done");
        assertThat(runs).hasValue(2);
        assertThat(registry.get("perflab.wallet.lock.failures").tag("kind", "deadlock").counter().count()).isEqualTo(1);
        assertThat(registry.get("perflab.wallet.transfer.retries").counter().count()).isEqualTo(1);
    }

    @Test
    void whenTheAttemptsRunOutTheClientGetsA503WithRetryAfterNotA500() {
        AtomicInteger runs = new AtomicInteger();

        ApiException busy = catchThrowableOfType(ApiException.class, () -> retry.run(() -> {
            runs.incrementAndGet();
            throw lockWaitTimeout();
        }));

        assertThat(runs).hasValue(3);
        assertThat(busy.status().value()).isEqualTo(503);
        assertThat(busy.code()).isEqualTo("lock-contention");
        assertThat(busy.headers().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        assertThat(registry.get("perflab.wallet.lock.failures").tag("kind", "lock-wait-timeout").counter().count()).isEqualTo(3);
    }

    @Test
    void otherFailuresAreNotRetried() {
        AtomicInteger runs = new AtomicInteger();
        RuntimeException other = new DataIntegrityViolationException("duplicate", new SQLException("dup", "23000", 1062));

        Throwable thrown = catchThrowableOfType(DataIntegrityViolationException.class, () -> retry.run(() -> {
            runs.incrementAndGet();
            throw other;
        }));

        assertThat(thrown).isSameAs(other);
        assertThat(runs).hasValue(1);
    }
}
