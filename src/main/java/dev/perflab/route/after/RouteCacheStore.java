package dev.perflab.route.after;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.core.RedisCallback;
import org.springframework.data.redis.core.RedisTemplate;
import org.springframework.data.redis.serializer.RedisSerializer;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteCodec;
import dev.perflab.route.RouteCodecException;
import dev.perflab.route.RouteSink;

/**
 * The cached batches of one university in Redis: a manifest GET, then one pipelined GET per batch key in a single
 * round trip (never KEYS or SCAN). Pipelined GETs rather than one MGET: Redis runs each GET as its own command, so
 * other clients' commands are served between batches; one MGET would build the whole university's reply (megabytes)
 * in one command and block them, as one big key does. A value the codec cannot decode is evicted and counted; a batch of another version is a miss. Redis
 * failures are not caught here: the caller decides to degrade.
 */
final class RouteCacheStore {

    private static final Logger log = LoggerFactory.getLogger(RouteCacheStore.class);
    /** The largest cached value read: a batch of 2,500 routes is about 0.3 MB in JSON, the single layout's few MB. */
    static final int MAX_VALUE_BYTES = 64 * 1024 * 1024;

    private final RedisTemplate<String, byte[]> redis;
    private final RouteCodec codec;
    private final RouteKeys keys;
    private final Duration ttl;
    private final RouteCacheMetrics metrics;

    RouteCacheStore(RedisConnectionFactory connections, RouteCodec codec, RouteKeys keys, Duration ttl,
            RouteCacheMetrics metrics) {
        RedisTemplate<String, byte[]> template = new RedisTemplate<>();
        template.setConnectionFactory(connections);
        template.setKeySerializer(RedisSerializer.string());
        template.setValueSerializer(RedisSerializer.byteArray());
        template.afterPropertiesSet();
        this.redis = template;
        this.codec = codec;
        this.keys = keys;
        this.ttl = ttl;
        this.metrics = metrics;
    }

    /** The raw cached values of {@code version}, in batch order, or null when the cache does not hold it completely. */
    List<byte[]> readRaw(long univId, long version) {
        Cached cached = readCached(univId, version);
        return cached == null ? null : cached.values();
    }

    private Cached readCached(long univId, long version) {
        byte[] stored = redis.opsForValue().get(keys.manifest(univId));
        Manifest manifest = Manifest.parse(stored);
        if (stored != null && manifest == null) { // tampered or corrupt: a miss, evicted, and counted
            metrics.rejected();
            log.warn("route cache: rejecting the manifest {} (malformed or out of bounds)", keys.manifest(univId));
            redis.delete(keys.manifest(univId));
            return null;
        }
        if (manifest == null || manifest.version() != version) {
            return null;
        }
        List<String> batchKeys = new ArrayList<>(manifest.batches());
        for (int i = 0; i < manifest.batches(); i++) {
            batchKeys.add(keys.batch(univId, i));
        }
        List<Object> replies = redis.executePipelined((RedisCallback<Object>) connection -> {
            for (String key : batchKeys) {
                connection.stringCommands().get(key.getBytes(StandardCharsets.UTF_8));
            }
            return null;
        });
        List<byte[]> values = new ArrayList<>(replies.size());
        for (Object reply : replies) {
            if (!(reply instanceof byte[] value)) {
                return null;
            }
            if (value.length > MAX_VALUE_BYTES) { // a decoder is never handed more than a batch can be
                metrics.rejected();
                return null;
            }
            values.add(value);
        }
        return new Cached(manifest, values);
    }

    private record Cached(Manifest manifest, List<byte[]> values) {
    }

    /**
     * {@code cache-read=together}: every batch of {@code version} decoded before the graph sees one, or null on a miss
     * (a corrupt value is evicted first). Every raw value stays alive until the last batch is decoded.
     */
    List<RouteBatch> read(long univId, long version) {
        List<RouteBatch> batches = new ArrayList<>();
        RouteSink collecting = new RouteSink() {
            @Override
            public void accept(RouteBatch batch) {
                batches.add(batch);
            }

            @Override
            public void discard() {
                batches.clear();
            }
        };
        return decodeInto(univId, version, collecting, false) ? batches : null;
    }

    /**
     * {@code cache-read=per-batch}: the cached batches of {@code version} decoded one at a time, each fed to
     * {@code sink} before the next is decoded, so that one batch's objects are alive at once rather than the whole
     * university's (and each raw value is let go once decoded). False on a miss, found before the first batch or
     * part-way (a corrupt value, evicted, or one of another version), after {@link RouteSink#discard()}.
     */
    boolean readInto(long univId, long version, RouteSink sink) {
        return decodeInto(univId, version, sink, true);
    }

    /**
     * Decodes the cached batches of {@code version} in order into {@code sink}; {@code letGo} drops each raw value
     * once decoded. False on a miss or a batch that cannot be served, after {@link RouteSink#discard()}.
     */
    private boolean decodeInto(long univId, long version, RouteSink sink, boolean letGo) {
        Cached cached = readCached(univId, version);
        if (cached == null) {
            return false;
        }
        List<byte[]> values = cached.values();
        long decoding = 0;
        long bytes = 0;
        long routes = 0;
        for (int i = 0; i < values.size(); i++) {
            long started = System.nanoTime();
            RouteBatch batch = decode(univId, i, values.get(i));
            decoding += System.nanoTime() - started;
            if (batch == null || batch.version() != version) { // corrupt (evicted), or written for another version
                sink.discard();
                return false;
            }
            bytes += values.get(i).length;
            routes += batch.routes().size();
            if (letGo) {
                values.set(i, null);
            }
            sink.accept(batch);
        }
        if (routes != cached.manifest().routes()) {
            sink.discard();
            return false;
        }
        metrics.decodedRequest(decoding, bytes);
        return true;
    }

    private RouteBatch decode(long univId, int index, byte[] value) {
        try {
            return metrics.decodeBatch(() -> codec.decode(value, univId, index));
        } catch (RouteCodecException e) {
            metrics.corrupt();
            log.warn("route cache: evicting {} ({})", keys.batch(univId, index), e.getMessage());
            redis.delete(List.of(keys.batch(univId, index), keys.manifest(univId)));
            return null;
        }
    }

    /** Stores one batch; call {@link #publish} after the last one. */
    void put(RouteBatch batch) {
        byte[] value = metrics.encodeBatch(() -> codec.encode(batch));
        redis.opsForValue().set(keys.batch(batch.univId(), batch.index()), value, ttl);
    }

    /** Makes the stored batches visible: written last, so that a reader never sees a manifest without its batches. */
    void publish(long univId, long version, int batches, long routes) {
        redis.opsForValue().set(keys.manifest(univId), new Manifest(version, batches, routes).bytes(), ttl);
    }
}
