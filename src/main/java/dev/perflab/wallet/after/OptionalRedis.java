package dev.perflab.wallet.after;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import dev.perflab.support.problem.Outage;

import org.springframework.cache.Cache;

/**
 * The wallet's Redis caches are optional on the transfer path: when Redis is unreachable or times out, a read is a
 * miss (the caller reads MariaDB) and a write is skipped, so transfers go on while Redis is down. Any other failure
 * propagates. (Evictions are not wrapped: a phone change that cannot evict its old number must not look done.)
 */
final class OptionalRedis {

    private static final Logger log = LoggerFactory.getLogger(OptionalRedis.class);

    private OptionalRedis() {
    }

    static <T> T get(Cache cache, Object key, Class<T> type) {
        try {
            return cache.get(key, type);
        } catch (RuntimeException e) {
            skipIfRedisIsDown(cache, e);
            return null;
        }
    }

    static void put(Cache cache, Object key, Object value) {
        try {
            cache.put(key, value);
        } catch (RuntimeException e) {
            skipIfRedisIsDown(cache, e);
        }
    }

    private static void skipIfRedisIsDown(Cache cache, RuntimeException e) {
        if (!Outage.of(e).map(outage -> outage.dependency().equals("redis")).orElse(false)) {
            throw e;
        }
        log.debug("{} skipped, Redis is unavailable: {}", cache.getName(), e.toString());
    }
}
