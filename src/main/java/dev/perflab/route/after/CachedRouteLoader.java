package dev.perflab.route.after;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteKnobs;
import dev.perflab.route.RouteLoader;
import dev.perflab.route.RouteRepository;
import dev.perflab.route.RouteSink;

/**
 * {@code perflab.route.cache=redis}: cache-aside. Fast because a hit costs one indexed version query, two Redis
 * round trips and decoding, instead of a 50,000-row join: {@code perflab_route_cache_requests_total{result}} and
 * {@code perflab_route_phase_seconds{phase="load"}}; how fast decoding is depends on the codec
 * ({@code perflab_route_codec_seconds}). The version read from MariaDB on every request must match the cached
 * manifest and every batch, so a route change is never answered from stale or mixed batches. If Redis fails the
 * database answers (degraded) and Redis is left alone for a while. {@code perflab.route.cache-read} says whether a
 * hit decodes every batch before the graph sees one ({@code together}, perflab's first way: the whole university's
 * decoded objects alive at once, which {@code jvm_gc_pause_seconds} shows under load) or feeds each batch to the
 * graph as it is decoded ({@code per-batch}; a batch found unusable part-way discards what was fed).
 */
final class CachedRouteLoader implements RouteLoader {

    private final RouteRepository repository;
    private final RouteCacheStore store;
    private final RedisGate gate;
    private final RouteCacheMetrics metrics;
    private final RouteKnobs knobs;

    CachedRouteLoader(RouteRepository repository, RouteCacheStore store, RedisGate gate, RouteCacheMetrics metrics,
            RouteKnobs knobs) {
        this.repository = repository;
        this.store = store;
        this.gate = gate;
        this.metrics = metrics;
        this.knobs = knobs;
    }

    @Override
    public long load(long univId, RouteSink sink) {
        long version = repository.version(univId).orElseThrow(() -> RouteRepository.unknownUniversity(univId));
        if (!gate.isOpen()) {
            metrics.degraded();
            return repository.stream(univId, knobs.batchSize(), sink);
        }
        List<RouteBatch> together = null;
        boolean hit;
        try {
            if (knobs.cacheRead() == RouteKnobs.CacheRead.PER_BATCH) {
                hit = store.readInto(univId, version, sink);
            } else {
                together = store.read(univId, version);
                hit = together != null;
            }
        } catch (RuntimeException e) {
            sink.discard();
            gate.failed(e);
            metrics.degraded();
            return repository.stream(univId, knobs.batchSize(), sink);
        }
        gate.succeeded();
        if (hit) {
            metrics.hit();
            if (together != null) {
                together.forEach(sink);
            }
            return version;
        }
        metrics.miss();
        return loadAndStore(univId, sink);
    }

    private long loadAndStore(long univId, RouteSink sink) {
        AtomicInteger stored = new AtomicInteger();
        AtomicLong routes = new AtomicLong();
        boolean[] failed = {false};
        long version = repository.stream(univId, knobs.routesPerKey(), batch -> {
            sink.accept(batch);
            if (!failed[0]) {
                failed[0] = !tryRedis(() -> store.put(batch));
                stored.incrementAndGet();
                routes.addAndGet(batch.routes().size());
            }
        });
        if (!failed[0]) {
            tryRedis(() -> store.publish(univId, version, stored.get(), routes.get()));
        }
        return version;
    }

    private boolean tryRedis(Runnable command) {
        try {
            command.run();
            return true;
        } catch (RuntimeException e) {
            gate.failed(e);
            return false;
        }
    }
}
