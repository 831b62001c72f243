package dev.perflab.route.after;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps requests off a failing Redis: every failed request is served by the database (degraded); after
 * {@value #FAILURES_TO_CLOSE} failures in a row Redis is skipped for {@code redis-retry-after}, so that a dead Redis
 * costs no command timeout per request. A single slow reply under load does not send all traffic to the database.
 * One WARN per {@code warn-interval}; {@code perflab_route_redis_failures_total}.
 */
final class RedisGate {

    private static final Logger log = LoggerFactory.getLogger(RedisGate.class);
    static final int FAILURES_TO_CLOSE = 3;

    private final long retryAfterNanos;
    private final long warnIntervalNanos;
    private final Counter failures;
    private final AtomicLong lastWarn = new AtomicLong();
    private final AtomicInteger inARow = new AtomicInteger();
    private volatile boolean closed;
    private volatile long closedUntil;
    private volatile boolean warnedOnce;

    RedisGate(Duration retryAfter, Duration warnInterval, MeterRegistry registry) {
        this.retryAfterNanos = retryAfter.toNanos();
        this.warnIntervalNanos = warnInterval.toNanos();
        this.failures = Counter.builder("perflab.route.redis.failures")
                .description("Redis commands of the route cache that failed (the request was served from the database)")
                .register(registry);
    }

    boolean isOpen() {
        return !closed || System.nanoTime() - closedUntil >= 0;
    }

    void succeeded() {
        if (inARow.get() != 0) {
            inARow.set(0);
        }
    }

    void failed(RuntimeException e) {
        long now = System.nanoTime();
        failures.increment();
        if (inARow.incrementAndGet() >= FAILURES_TO_CLOSE) {
            closedUntil = now + retryAfterNanos;
            closed = true;
        }
        long last = lastWarn.get();
        if ((!warnedOnce || now - last >= warnIntervalNanos) && lastWarn.compareAndSet(last, now)) {
            warnedOnce = true;
            log.warn("route cache: Redis failed ({}); serving routes from the database ({} failures in a row skip Redis"
                    + " for {} ms)", e.toString(), FAILURES_TO_CLOSE, retryAfterNanos / 1_000_000);
        }
    }
}
