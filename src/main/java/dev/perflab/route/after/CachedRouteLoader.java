package dev.perflab.route.after;

import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.perflab.route.RouteBatch;
import dev.perflab.route.RouteKnobs;
import dev.perflab.route.RouteLoader;
import dev.perflab.route.RouteRepository;

/**
 * {@code perflab.route.cache=redis}: cache-aside. Fast because a hit costs one indexed version query, two Redis
 * round trips and decoding, instead of a 50,000-row join: {@code perflab_route_cache_requests_total{result}} and
 * {@code perflab_route_phase_seconds{phase="load"}}; how fast decoding is depends on the codec
 * ({@code perflab_route_codec_seconds}). The version read from MariaDB on every request must match the cached
 * manifest and every batch, so a route change is never answered from stale or mixed batches. If Redis fails the
 * database answers (degraded) and Redis is left alone for a while.
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
    public long load(long univId, Consumer<RouteBatch> sink) {
        long version = repository.version(univId).orElseThrow(() -> RouteRepository.unknownUniversity(univId));
        if (!gate.isOpen()) {
            metrics.degraded();
            return repository.stream(univId, knobs.batchSize(), sink);
        }
        List<RouteBatch> cached;
        try {
            cached = store.read(univId, version);
        } catch (RuntimeException e) {
            gate.failed(e);
            metrics.degraded();
            return repository.stream(univId, knobs.batchSize(), sink);
        }
        gate.succeeded();
        if (cached != null) {
            metrics.hit();
            cached.forEach(sink);
            return version;
        }
        metrics.miss();
        return loadAndStore(univId, sink);
    }

    private long loadAndStore(long univId, Consumer<RouteBatch> sink) {
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
