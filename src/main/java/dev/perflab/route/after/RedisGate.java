package dev.perflab.route.after;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Keeps requests off a failing Redis: after a failure, Redis is skipped for {@code redis-retry-after} and the
 * database serves (degraded); one WARN per {@code warn-interval}; {@code perflab_route_redis_failures_total}.
 */
final class RedisGate {

    private static final Logger log = LoggerFactory.getLogger(RedisGate.class);

    private final long retryAfterNanos;
    private final long warnIntervalNanos;
    private final Counter failures;
    private final AtomicLong lastWarn = new AtomicLong();
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

    void failed(RuntimeException e) {
        long now = System.nanoTime();
        closedUntil = now + retryAfterNanos;
        closed = true;
        failures.increment();
        long last = lastWarn.get();
        if ((!warnedOnce || now - last >= warnIntervalNanos) && lastWarn.compareAndSet(last, now)) {
            warnedOnce = true;
            log.warn("route cache: Redis failed ({}); serving routes from the database for the next {} ms", e.toString(),
                    retryAfterNanos / 1_000_000);
        }
    }
}
