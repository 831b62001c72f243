package dev.perflab.route;

import java.io.IOException;
import java.io.OutputStream;
import java.util.List;

/**
 * Writes the routes response: {@code {univId, version, routeCount, nodeCount, coreRouteCount, nodes: [{id, lat, lng}],
 * coreRoutes: [{node1, node2, distance, cautionFactors, dangerFactors, nodes}]}}. Shared by every variant, so that the
 * variants differ only where they should; {@code perflab.route.writer} picks the JSON library
 * ({@code perflab_route_phase_seconds{phase="write"}} is its time per request).
 */
public interface RouteResponseWriter {

    void write(OutputStream out, long univId, long version, RouteGraph graph, List<RouteGraph.CoreRoute> cores)
            throws IOException;
}
