package dev.perflab.route;

import java.io.IOException;
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

import dev.perflab.support.security.CurrentMember;

/**
 * {@code GET /api/universities/{univId}/routes}: the university's core routes, built from its routes on every
 * request. {@code PUT /api/admin/universities/{univId}/routes/{routeId}}: change one route (bumps the version).
 * Both need a Bearer token, like every {@code /api/**} path.
 * <p>
 * A read takes a slot of its member's ({@link RouteReadsPerMember}, 429 beyond {@code member-concurrency}) for the
 * whole request, and a {@link RouteBulkhead} permit for the build alone (load and compress): the answer is written
 * after the permit is given back. The write streams to the client at the client's pace, so a permit held through it
 * let four slow readers stall every route read for {@code concurrency-wait} (issue 46, finding 6: 58.8 s). The
 * answer is still streamed, not built into a byte array first: each writer's work and memory per request are what
 * {@code route-writer} and {@code route-gc} measure ({@code perflab_route_phase_seconds{phase="write"}}, promoted
 * bytes per request), so only the permit's release point moved. Metrics: {@code perflab_route_phase_seconds{phase}},
 * {@code perflab_route_bulkhead_active}, {@code perflab_route_reads_in_flight}.
 */
@RestController
class RouteController {

    private final RouteLoader loader;
    private final RouteRepository repository;
    private final RouteBulkhead bulkhead;
    private final RouteReadsPerMember members;
    private final RouteResponseWriter writer;
    private final Timer loadTimer;
    private final Timer compressTimer;
    private final Timer writeTimer;

    RouteController(RouteLoader loader, RouteRepository repository, RouteBulkhead bulkhead,
            RouteReadsPerMember members, RouteResponseWriter writer, MeterRegistry registry) {
        this.loader = loader;
        this.writer = writer;
        this.repository = repository;
        this.bulkhead = bulkhead;
        this.members = members;
        this.loadTimer = phase(registry, "load");
        this.compressTimer = phase(registry, "compress");
        this.writeTimer = phase(registry, "write");
    }

    @GetMapping("/api/universities/{univId}/routes")
    void routes(@PathVariable long univId, HttpServletResponse response) throws IOException {
        try (RouteReadsPerMember.Slot slot = members.enter(CurrentMember.id())) {
            Built built = bulkhead.run(() -> build(univId));
            write(response, built);
        }
    }

    /** Load and compress, under the bulkhead's permit: the CPU- and memory-heavy part, bounded. */
    private Built build(long univId) {
        GraphSink sink = new GraphSink();
        long version = loadTimer.record(() -> loader.load(univId, sink));
        RouteGraph graph = sink.graph;
        List<RouteGraph.CoreRoute> cores = compressTimer.record(graph::coreRoutes);
        return new Built(univId, version, graph, cores);
    }

    /** Builds the graph batch by batch; a discard starts a new one. */
    private static final class GraphSink implements RouteSink {

        private RouteGraph graph = new RouteGraph();

        @Override
        public void accept(RouteBatch batch) {
            graph.add(batch);
        }

        @Override
        public void discard() {
            graph = new RouteGraph();
        }
    }

    /** Stream the answer, outside the permit: it lasts as long as the client takes to read it. */
    private void write(HttpServletResponse response, Built built) throws IOException {
        response.setContentType(MediaType.APPLICATION_JSON_VALUE);
        Timer.Sample sample = Timer.start();
        writer.write(response.getOutputStream(), built.univId(), built.version(), built.graph(), built.cores());
        sample.stop(writeTimer);
    }

    private record Built(long univId, long version, RouteGraph graph, List<RouteGraph.CoreRoute> cores) {
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
