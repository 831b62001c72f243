package dev.perflab.route.before;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

import dev.perflab.route.RouteKnobs;
import dev.perflab.route.RouteLoader;
import dev.perflab.route.RouteRepository;
import dev.perflab.route.RouteSink;

/**
 * {@code perflab.route.cache=off}: every request streams the university's 50,000 routes (joined with their
 * nodes) from MariaDB. Slow because each request pays the full query, row decoding and object creation:
 * see {@code perflab_route_phase_seconds{phase="load"}} and the database time in the request.
 */
@Component
@ConditionalOnProperty(name = "perflab.route.cache", havingValue = "off", matchIfMissing = true)
class DatabaseRouteLoader implements RouteLoader {

    private final RouteRepository repository;
    private final RouteKnobs knobs;

    DatabaseRouteLoader(RouteRepository repository, RouteKnobs knobs) {
        this.repository = repository;
        this.knobs = knobs;
    }

    @Override
    public long load(long univId, RouteSink sink) {
        return repository.stream(univId, knobs.batchSize(), sink);
    }
}
