package dev.perflab.wallet;

import java.sql.SQLException;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.perflab.support.problem.ApiException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Runs a whole transaction again when InnoDB rolled it back as a deadlock victim (1213) or it timed out
 * waiting for a row lock (1205), at most {@code perflab.wallet.max-attempts} times. Each failure is counted
 * in {@code perflab_wallet_lock_failures_total{kind}}; when the attempts run out the client gets a 503
 * problem with Retry-After, never a 500.
 */
@Component
public class LockRetry {

    static final int DEADLOCK = 1213;
    static final int LOCK_WAIT_TIMEOUT = 1205;

    private final int maxAttempts;
    private final MeterRegistry registry;
    private final Counter retries;

    public LockRetry(WalletKnobs knobs, MeterRegistry registry) {
        this.maxAttempts = Math.max(1, knobs.maxAttempts());
        this.registry = registry;
        this.retries = Counter.builder("perflab.wallet.transfer.retries")
                .description("transactions run again after a deadlock or lock-wait timeout").register(registry);
    }

    public <T> T run(Supplier<T> transaction) {
        for (int attempt = 1; ; attempt++) {
            try {
                return transaction.get();
            } catch (RuntimeException e) {
                String kind = lockFailureKind(e);
                if (kind == null) {
                    throw e;
                }
                Counter.builder("perflab.wallet.lock.failures").description("deadlocks and lock-wait timeouts")
                        .tag("kind", kind).register(registry).increment();
                if (attempt >= maxAttempts) {
                    throw new Busy(kind);
                }
                retries.increment();
            }
        }
    }

    /** "deadlock", "lock-wait-timeout", or null when the failure is something else. */
    static String lockFailureKind(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof SQLException sql) {
                if (sql.getErrorCode() == DEADLOCK) {
                    return "deadlock";
                }
                if (sql.getErrorCode() == LOCK_WAIT_TIMEOUT) {
                    return "lock-wait-timeout";
                }
            }
        }
        return null;
    }

    /** The attempts ran out: the client may try again with the same Idempotency-Key. */
    static final class Busy extends ApiException {

        Busy(String kind) {
            super(HttpStatus.SERVICE_UNAVAILABLE, "lock-contention",
                    "The wallets are busy (" + kind + "); retry with the same Idempotency-Key.");
        }

        @Override
        public HttpHeaders headers() {
            HttpHeaders headers = new HttpHeaders();
            headers.set(HttpHeaders.RETRY_AFTER, "1");
            return headers;
        }
    }
}
