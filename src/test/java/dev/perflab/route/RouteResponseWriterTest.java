package dev.perflab.route;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;

import dev.perflab.route.writer.Fastjson2RouteResponseWriter;
import dev.perflab.route.writer.JacksonRouteResponseWriter;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Both response writers write the same document: the same properties in the same order and the same numbers (every
 * double parses back to the value written), over an answer large enough that the fastjson2 writer flushes many times.
 */
class RouteResponseWriterTest {

    private static final JsonMapper JSON = JsonMapper.builder().build();

    @Test
    void fastjson2WritesWhatJacksonWritesForAWholeUniversity() throws IOException {
        RouteGraph graph = graph(6_000, new Random(7));
        List<RouteGraph.CoreRoute> cores = graph.coreRoutes();

        byte[] jackson = write(new JacksonRouteResponseWriter(), graph, cores);
        byte[] fastjson2 = write(new Fastjson2RouteResponseWriter(), graph, cores);

        assertThat(fastjson2.length).isGreaterThan(4 * 64 * 1024);
        JsonNode expected = JSON.readTree(jackson);
        JsonNode actual = JSON.readTree(fastjson2);
        assertThat(actual).isEqualTo(expected);
        assertThat(actual.propertyNames()).containsExactly("univId", "version", "routeCount", "nodeCount",
                "coreRouteCount", "nodes", "coreRoutes");
        assertThat(actual.get("nodes").size()).isEqualTo(graph.nodeCount());
        assertThat(actual.get("coreRoutes").size()).isEqualTo(cores.size()).isGreaterThan(1);
    }

    @Test
    void everyCoordinateParsesBackToTheDoubleThatWasWritten() throws IOException {
        Random random = new Random(11);
        RouteGraph graph = new RouteGraph();
        List<LightRoute> routes = new ArrayList<>();
        for (int i = 0; i < 20_000; i++) { // any finite double, not only coordinates
            routes.add(new LightRoute(i, anyFinite(random), new LightNode(2L * i, anyFinite(random), anyFinite(random)),
                    new LightNode(2L * i + 1, anyFinite(random), anyFinite(random)), List.of(), List.of()));
        }
        graph.add(new RouteBatch(1, 1, 0, routes));

        JsonNode written = JSON.readTree(write(new Fastjson2RouteResponseWriter(), graph, graph.coreRoutes()));

        JsonNode nodes = written.get("nodes");
        for (int i = 0; i < graph.nodeCount(); i++) {
            assertThat(nodes.get(i).get("lat").doubleValue()).isEqualTo(graph.nodes().lat(i));
            assertThat(nodes.get(i).get("lng").doubleValue()).isEqualTo(graph.nodes().lng(i));
        }
        assertThat(written.get("coreRoutes").size()).isEqualTo(20_000); // every route is its own core route here
        for (JsonNode core : written.get("coreRoutes")) {
            assertThat(core.get("distance").isDouble()).isTrue();
        }
    }

    private static byte[] write(RouteResponseWriter writer, RouteGraph graph, List<RouteGraph.CoreRoute> cores)
            throws IOException {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        writer.write(out, 3, 42, graph, cores);
        return out.toByteArray();
    }

    /** Chains of seeder-like coordinates joined at intersections, with factors on some routes. */
    private static RouteGraph graph(int size, Random random) {
        List<LightRoute> routes = new ArrayList<>();
        double lat = 37.500031978185554;
        double lng = 126.99994002808575;
        LightNode previous = new LightNode(1, lat, lng);
        for (int i = 0; i < size; i++) {
            lat += (random.nextDouble() - 0.5) * 5e-5;
            lng += (random.nextDouble() - 0.5) * 5e-5;
            LightNode next = random.nextInt(50) == 0 ? new LightNode(1 + random.nextInt(i + 1), 0, 0) : new LightNode(i + 2, lat, lng);
            List<CautionFactor> caution = random.nextInt(12) == 0 ? List.of(CautionFactor.SLOPE, CautionFactor.CURB) : List.of();
            List<DangerFactor> danger = random.nextInt(30) == 0 ? List.of(DangerFactor.STAIRS) : List.of();
            routes.add(new LightRoute(i, 1 + random.nextDouble() * 4, previous, next, caution, danger));
            previous = new LightNode(i + 2, lat, lng);
        }
        RouteGraph graph = new RouteGraph();
        for (int from = 0; from < size; from += 2_500) {
            graph.add(new RouteBatch(1, 42, from / 2_500, routes.subList(from, Math.min(size, from + 2_500))));
        }
        return graph;
    }

    private static double anyFinite(Random random) {
        double value;
        do {
            value = Double.longBitsToDouble(random.nextLong());
        } while (!Double.isFinite(value));
        return value;
    }
}
