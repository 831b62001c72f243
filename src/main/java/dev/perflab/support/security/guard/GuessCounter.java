package dev.perflab.support.security.guard;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.dao.DataAccessException;
import org.springframework.data.redis.connection.RedisStringCommands;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.StringRedisTemplate;
import org.springframework.data.redis.core.types.Expiration;
import org.springframework.stereotype.Component;

/**
 * Counts wrong guesses per key in Redis, which every instance behind a load balancer shares, and says which keys are
 * blocked: {@code guess:<key>:fails} counts the window's failures (it expires with the window) and
 * {@code guess:<key>:block} holds the time until which tries are refused (it expires then). Nothing is written to
 * MariaDB, so a wrong PIN or password changes no table; a try costs one MGET, a failure one pipelined round trip and
 * one SET. While Redis is unreachable the guards let tries through (the transfers and logins they guard go on, as the
 * wallet's caches do) and skip Redis for {@value #SKIP_MS} ms after each failure, counted in
 * {@code perflab_guard_unavailable_total}.
 */
@Component
public class GuessCounter {

    private static final Logger log = LoggerFactory.getLogger(GuessCounter.class);
    static final long SKIP_MS = 5_000;

    private final StringRedisTemplate redis;
    private final GuardMetrics metrics;
    private final Counter unavailable;
    private final AtomicLong skipUntil = new AtomicLong();

    GuessCounter(StringRedisTemplate redis, GuardMetrics metrics, MeterRegistry registry) {
        this.redis = redis;
        this.metrics = metrics;
        this.unavailable = Counter.builder("perflab.guard.unavailable")
                .description("guard look-ups or counts skipped because Redis was unreachable").register(registry);
    }

    /** Counts one wrong guess of {@code key} under {@code policy}; {@code guard} names it in the metrics. */
    public void recordFailure(String guard, String key, GuessPolicy policy) {
        metrics.failed(guard);
        if (skipping()) {
            return;
        }
        byte[] fails = bytes("guess:" + key + ":fails");
        try {
            long now = System.currentTimeMillis();
            List<Object> replies = redis.executePipelined((RedisCallback<Object>) connection -> {
                connection.stringCommands().set(fails, bytes("0"), Expiration.milliseconds(policy.window().toMillis()),
                        RedisStringCommands.SetOption.ifAbsent());
                connection.stringCommands().incr(fails);
                connection.keyCommands().pTtl(fails, TimeUnit.MILLISECONDS);
                return null;
            });
            int count = ((Long) replies.get(1)).intValue();
            long windowEnd = now + Math.max(0, (Long) replies.get(2));
            long until = policy.blockedUntil(count, now, windowEnd);
            if (until > now) {
                redis.opsForValue().set("guess:" + key + ":block", Long.toString(until), until - now, TimeUnit.MILLISECONDS);
            }
        } catch (DataAccessException e) {
            redisFailed(e);
        }
    }

    /** The longest block among these keys at {@code nowMs}, as (key, until), if any. */
    public Optional<Block> longestBlock(List<String> keys, long nowMs) {
        if (skipping()) {
            return Optional.empty();
        }
        try {
            List<String> values = redis.opsForValue().multiGet(keys.stream().map(k -> "guess:" + k + ":block").toList());
            Block longest = null;
            for (int i = 0; values != null && i < keys.size(); i++) {
                long until = parse(values.get(i));
                if (until > nowMs && (longest == null || until > longest.untilMs())) {
                    longest = new Block(keys.get(i), until);
                }
            }
            return Optional.ofNullable(longest);
        } catch (DataAccessException e) {
            redisFailed(e);
            return Optional.empty();
        }
    }

    /** Counts a try refused with 429. */
    public void refused(String guard) {
        metrics.refused(guard);
    }

    /** A blocked key and until when (epoch ms). */
    public record Block(String key, long untilMs) {
    }

    private boolean skipping() {
        return System.currentTimeMillis() < skipUntil.get();
    }

    private void redisFailed(DataAccessException e) {
        unavailable.increment();
        long previous = skipUntil.getAndSet(System.currentTimeMillis() + SKIP_MS);
        if (previous == 0 || System.currentTimeMillis() - previous > 60_000) {
            log.warn("guess guards: Redis is unreachable ({}); tries are let through for now", e.toString());
        }
    }

    /** A value that is not a number (tampered) blocks nothing: a block is only ever shortened by it, never made. */
    private static long parse(String value) {
        if (value == null) {
            return 0;
        }
        try {
            return Long.parseLong(value);
        } catch (NumberFormatException e) {
            return 0;
        }
    }

    private static byte[] bytes(String text) {
        return text.getBytes(StandardCharsets.UTF_8);
    }
}
