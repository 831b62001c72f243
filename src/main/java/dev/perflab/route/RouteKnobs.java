package dev.perflab.route;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The route feature's knobs (seed 001) and its tuning values. Defaults are the baseline.
 *
 * @param cache           {@code off}: read MariaDB on every request; {@code redis}: cache-aside in Redis
 * @param layout          {@code single}: the whole university under one key; {@code batched}: {@link #batchSize} routes per key
 * @param codec           how a cached batch is encoded: {@code jackson}, {@code fastjson2}, {@code fastjson2-jsonb}, {@code fory}
 * @param writer          the JSON library that writes the response, for every variant: {@code fastjson2} (the default)
 *                        or {@code jackson}
 * @param batchSize       routes per cached key (and per database fetch) in the batched layout; the seed used 2,500
 * @param ttl             how long cached batches live; a version change makes them unusable sooner
 * @param redisRetryAfter after a Redis failure, how long requests go straight to the database before Redis is tried again
 * @param warnInterval    at most one WARN log per interval while Redis fails
 * @param redisPoolSize   connections in the route cache's own Redis pool: big values never share a connection, and
 *                        at most this many big reads are in flight
 * @param redisTimeout    command timeout of that pool, and the longest wait for one of its connections
 * @param concurrency     route requests that build a graph at once (0 = twice the CPUs, -1 = no limit, as the
 *                        write-up's service had none); the rest wait their turn
 * @param concurrencyWait the longest such wait before a 503
 * @param memberConcurrency route reads one member may have in flight on an instance, their answers' writing
 *                        included (0 = no limit); one more is refused with 429 at once ({@link RouteReadsPerMember})
 * @param cacheRead       how a cache hit is decoded: {@code together}, every batch decoded before the graph sees one
 *                        (perflab's first way: the whole university's objects alive at once), or {@code per-batch}, each
 *                        batch decoded and added to the graph before the next (one batch's objects at a time, as the write-up's Eden
 *                        check counts them)
 */
@ConfigurationProperties("perflab.route")
public record RouteKnobs(
        @DefaultValue("off") Cache cache,
        @DefaultValue("single") Layout layout,
        @DefaultValue("jackson") Codec codec,
        @DefaultValue("fastjson2") Writer writer,
        @DefaultValue("2500") int batchSize,
        @DefaultValue("30m") Duration ttl,
        @DefaultValue("5s") Duration redisRetryAfter,
        @DefaultValue("30s") Duration warnInterval,
        @DefaultValue("8") int redisPoolSize,
        @DefaultValue("5s") Duration redisTimeout,
        @DefaultValue("0") int concurrency,
        @DefaultValue("60s") Duration concurrencyWait,
        @DefaultValue("2") int memberConcurrency,
        @DefaultValue("together") CacheRead cacheRead) {

    public RouteKnobs {
        if (batchSize < 1) {
            throw new IllegalArgumentException("perflab.route.batch-size must be at least 1");
        }
        if (redisPoolSize < 1) {
            throw new IllegalArgumentException("perflab.route.redis-pool-size must be at least 1");
        }
        if (concurrency < -1) {
            throw new IllegalArgumentException("perflab.route.concurrency must be -1 (no limit), 0 (twice the CPUs) or more");
        }
        if (memberConcurrency < 0) {
            throw new IllegalArgumentException("perflab.route.member-concurrency must be 0 (no limit) or more");
        }
    }

    /** Routes per cached value: everything in one value for {@code single}, else {@link #batchSize}. */
    public int routesPerKey() {
        return layout == Layout.SINGLE ? Integer.MAX_VALUE : batchSize;
    }

    /** Whether route requests build without any bound ({@code concurrency = -1}). */
    public boolean unbounded() {
        return concurrency == -1;
    }

    public enum Cache {
        OFF, REDIS
    }

    public enum Layout {
        SINGLE, BATCHED
    }

    public enum Codec {
        JACKSON, FASTJSON2, FASTJSON2_JSONB, FORY
    }

    public enum CacheRead {
        TOGETHER, PER_BATCH
    }

    public enum Writer {
        JACKSON, FASTJSON2
    }
}
