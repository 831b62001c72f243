package dev.perflab.route;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** Chain compression: degree-2 nodes disappear into core routes between intersections and dead ends. */
class RouteGraphTest {

    @Test
    void compressesChainsBetweenIntersectionsAndKeepsTheirNodeLists() {
        // A(1)-3-4-B(2), A-B, A-5-B, B-6-7 (dead end), cycle 8-9-10-8
        long[][] edges = {{1, 3}, {3, 4}, {4, 2}, {1, 2}, {1, 5}, {5, 2}, {2, 6}, {6, 7}, {8, 9}, {9, 10}, {10, 8}};
        RouteGraph graph = new RouteGraph();
        List<LightRoute> routes = new ArrayList<>();
        for (int i = 0; i < edges.length; i++) {
            routes.add(new LightRoute(100 + i, 1 + i, node(edges[i][0]), node(edges[i][1]),
                    i == 1 ? List.of(CautionFactor.SLOPE) : List.of(), i == 7 ? List.of(DangerFactor.STAIRS) : List.of()));
        }
        graph.add(new RouteBatch(1, 1, 0, routes.subList(0, 6)));
        graph.add(new RouteBatch(1, 1, 1, routes.subList(6, 11)));

        List<RouteGraph.CoreRoute> cores = graph.coreRoutes();

        assertThat(graph.routeCount()).isEqualTo(11);
        assertThat(graph.nodeCount()).isEqualTo(10);
        assertThat(cores).extracting(c -> Arrays.toString(c.nodeIds())).containsExactlyInAnyOrder(
                "[1, 3, 4, 2]", "[1, 2]", "[1, 5, 2]", "[2, 6, 7]", "[8, 9, 10, 8]");
        RouteGraph.CoreRoute longChain = byNodes(cores, "[1, 3, 4, 2]");
        assertThat(longChain.distance()).isEqualTo(1 + 2 + 3);
        assertThat(longChain.cautionFactors()).containsExactly(CautionFactor.SLOPE);
        assertThat(byNodes(cores, "[2, 6, 7]").dangerFactors()).containsExactly(DangerFactor.STAIRS);
        assertThat(byNodes(cores, "[1, 2]").cautionFactors()).isEmpty();
        assertThat(cores.stream().mapToInt(c -> c.nodeIds().length - 1).sum()).isEqualTo(11);
    }

    @Test
    void anEmptyUniversityHasNoCoreRoutes() {
        RouteGraph graph = new RouteGraph();
        graph.add(new RouteBatch(1, 1, 0, List.of()));
        assertThat(graph.coreRoutes()).isEmpty();
    }

    private static RouteGraph.CoreRoute byNodes(List<RouteGraph.CoreRoute> cores, String nodes) {
        return cores.stream().filter(c -> Arrays.toString(c.nodeIds()).equals(nodes)).findFirst().orElseThrow();
    }

    private static LightNode node(long id) {
        return new LightNode(id, 37.5 + id / 1e4, 127 + id / 1e4);
    }
}
