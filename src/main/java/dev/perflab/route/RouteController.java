package dev.perflab.route;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import jakarta.servlet.http.HttpServletResponse;
import jakarta.validation.Valid;

import org.springframework.http.MediaType;
import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PutMapping;
import org.springframework.web.bind.annotation.RequestBody;
import org.springframework.web.bind.annotation.RestController;

/**
 * {@code GET /api/universities/{univId}/routes}: the university's core routes, built from its routes on every
 * request. {@code PUT /api/admin/universities/{univId}/routes/{routeId}}: change one route (bumps the version).
 * Both need a Bearer token, like every {@code /api/**} path.
 */
@RestController
class RouteController {

    private final RouteLoader loader;
    private final RouteRepository repository;
    private final RouteBulkhead bulkhead;
    private final RouteResponseWriter writer;
    private final Timer loadTimer;
    private final Timer compressTimer;
    private final Timer writeTimer;

    RouteController(RouteLoader loader, RouteRepository repository, RouteBulkhead bulkhead, RouteResponseWriter writer,
            MeterRegistry registry) {
        this.loader = loader;
        this.writer = writer;
        this.repository = repository;
        this.bulkhead = bulkhead;
        this.loadTimer = phase(registry, "load");
        this.compressTimer = phase(registry, "compress");
        this.writeTimer = phase(registry, "write");
    }

    @GetMapping("/api/universities/{univId}/routes")
    void routes(@PathVariable long univId, HttpServletResponse response) {
        bulkhead.run(() -> {
            RouteGraph graph = new RouteGraph();
            long version = loadTimer.record(() -> loader.load(univId, graph::add));
            List<RouteGraph.CoreRoute> cores = compressTimer.record(graph::coreRoutes);
            response.setContentType(MediaType.APPLICATION_JSON_VALUE);
            Timer.Sample sample = Timer.start();
            try {
                writer.write(response.getOutputStream(), univId, version, graph, cores);
            } catch (IOException e) {
                throw new UncheckedIOException(e);
            }
            return sample.stop(writeTimer);
        });
    }

    @PutMapping("/api/admin/universities/{univId}/routes/{routeId}")
    Map<String, Long> change(@PathVariable long univId, @PathVariable long routeId, @Valid @RequestBody RouteChange change) {
        long version = repository.update(univId, routeId, change);
        return Map.of("univId", univId, "routeId", routeId, "version", version);
    }

    private static Timer phase(MeterRegistry registry, String phase) {
        return Timer.builder("perflab.route.phase").description("time per request in each phase of GET routes")
                .tag("phase", phase).publishPercentileHistogram().register(registry);
    }
}
