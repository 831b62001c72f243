package dev.perflab.route;

import java.util.ArrayList;
import java.util.List;

import com.carrotsearch.hppc.LongIntHashMap;

/**
 * Builds a university's graph from its routes, batch by batch, and compresses every chain of degree-2 nodes
 * into one core route between intersections (nodes of any other degree), as the seed's service does. A cycle
 * made only of degree-2 nodes becomes one core route from a node back to itself. Nodes and edges are kept in
 * primitive arrays and the node index in a primitive map (HPPC), so that building 50,000 routes boxes nothing.
 */
public final class RouteGraph {

    private final LongIntHashMap nodeIndex = new LongIntHashMap(1024);
    private final NodeTable nodes = new NodeTable();
    private final EdgeTable edges = new EdgeTable();

    public void add(RouteBatch batch) {
        List<LightRoute> routes = batch.routes();
        for (int i = 0; i < routes.size(); i++) {
            LightRoute route = routes.get(i);
            int a = node(route.node1());
            int b = node(route.node2());
            edges.add(a, b, route.distance(), mask(route.cautionFactors()), mask(route.dangerFactors()));
        }
    }

    public int nodeCount() {
        return nodes.size();
    }

    public int routeCount() {
        return edges.size();
    }

    public NodeTable nodes() {
        return nodes;
    }

    /** The core routes, each with its node list from one intersection to the next. */
    public List<CoreRoute> coreRoutes() {
        int[][] incident = incidentEdges();
        boolean[] used = new boolean[edges.size()];
        List<CoreRoute> result = new ArrayList<>();
        for (int n = 0; n < nodes.size(); n++) {
            if (incident[n].length != 2) {
                walkAll(n, incident, used, result);
            }
        }
        for (int n = 0; n < nodes.size(); n++) { // what is left are cycles of degree-2 nodes
            walkAll(n, incident, used, result);
        }
        return result;
    }

    private void walkAll(int start, int[][] incident, boolean[] used, List<CoreRoute> result) {
        for (int e : incident[start]) {
            if (!used[e]) {
                result.add(walk(start, e, incident, used));
            }
        }
    }

    private CoreRoute walk(int start, int firstEdge, int[][] incident, boolean[] used) {
        ChainBuilder chain = new ChainBuilder(nodes.id(start));
        int node = start;
        int edge = firstEdge;
        while (true) {
            used[edge] = true;
            node = edges.other(edge, node);
            chain.add(nodes.id(node), edges.distance(edge), edges.caution(edge), edges.danger(edge));
            if (node == start || incident[node].length != 2) {
                return chain.build();
            }
            int next = incident[node][0] == edge ? incident[node][1] : incident[node][0];
            if (used[next]) {
                return chain.build();
            }
            edge = next;
        }
    }

    private int[][] incidentEdges() {
        int[] degree = new int[nodes.size()];
        for (int e = 0; e < edges.size(); e++) {
            degree[edges.a(e)]++;
            degree[edges.b(e)]++;
        }
        int[][] incident = new int[nodes.size()][];
        for (int n = 0; n < incident.length; n++) {
            incident[n] = new int[degree[n]];
            degree[n] = 0;
        }
        for (int e = 0; e < edges.size(); e++) {
            incident[edges.a(e)][degree[edges.a(e)]++] = e;
            incident[edges.b(e)][degree[edges.b(e)]++] = e;
        }
        return incident;
    }

    private int node(LightNode node) {
        int slot = nodeIndex.indexOf(node.id());
        if (nodeIndex.indexExists(slot)) {
            return nodeIndex.indexGet(slot);
        }
        int index = nodes.add(node.id(), node.lat(), node.lng());
        nodeIndex.indexInsert(slot, node.id(), index);
        return index;
    }

    private static int mask(List<? extends Enum<?>> factors) {
        int mask = 0;
        for (int i = 0; i < factors.size(); i++) { // indexed: an iterator per route was a sixth of the bytes allocated
            mask |= 1 << factors.get(i).ordinal();
        }
        return mask;
    }

    /** A compressed route: its end intersections, total distance, the union of its factors and its node list. */
    public record CoreRoute(long node1, long node2, double distance, List<CautionFactor> cautionFactors,
            List<DangerFactor> dangerFactors, long[] nodeIds) {
    }

    /** The graph's nodes in insertion order, as parallel arrays. */
    public static final class NodeTable {

        private long[] ids = new long[1024];
        private double[] lat = new double[1024];
        private double[] lng = new double[1024];
        private int size;

        int add(long id, double la, double ln) {
            if (size == ids.length) {
                ids = java.util.Arrays.copyOf(ids, size * 2);
                lat = java.util.Arrays.copyOf(lat, size * 2);
                lng = java.util.Arrays.copyOf(lng, size * 2);
            }
            ids[size] = id;
            lat[size] = la;
            lng[size] = ln;
            return size++;
        }

        public int size() {
            return size;
        }

        public long id(int i) {
            return ids[i];
        }

        public double lat(int i) {
            return lat[i];
        }

        public double lng(int i) {
            return lng[i];
        }
    }

    private static final class EdgeTable {

        private int[] a = new int[1024];
        private int[] b = new int[1024];
        private double[] distance = new double[1024];
        private int[] caution = new int[1024];
        private int[] danger = new int[1024];
        private int size;

        void add(int from, int to, double d, int cautionMask, int dangerMask) {
            if (size == a.length) {
                int n = size * 2;
                a = java.util.Arrays.copyOf(a, n);
                b = java.util.Arrays.copyOf(b, n);
                distance = java.util.Arrays.copyOf(distance, n);
                caution = java.util.Arrays.copyOf(caution, n);
                danger = java.util.Arrays.copyOf(danger, n);
            }
            a[size] = from;
            b[size] = to;
            distance[size] = d;
            caution[size] = cautionMask;
            danger[size] = dangerMask;
            size++;
        }

        int size() {
            return size;
        }

        int a(int e) {
            return a[e];
        }

        int b(int e) {
            return b[e];
        }

        int other(int e, int node) {
            return a[e] == node ? b[e] : a[e];
        }

        double distance(int e) {
            return distance[e];
        }

        int caution(int e) {
            return caution[e];
        }

        int danger(int e) {
            return danger[e];
        }
    }

    /** Accumulates one chain while it is walked. */
    private static final class ChainBuilder {

        private long[] nodeIds = new long[8];
        private int count;
        private double distance;
        private int caution;
        private int danger;

        ChainBuilder(long first) {
            nodeIds[count++] = first;
        }

        void add(long nodeId, double d, int cautionMask, int dangerMask) {
            if (count == nodeIds.length) {
                nodeIds = java.util.Arrays.copyOf(nodeIds, count * 2);
            }
            nodeIds[count++] = nodeId;
            distance += d;
            caution |= cautionMask;
            danger |= dangerMask;
        }

        CoreRoute build() {
            return new CoreRoute(nodeIds[0], nodeIds[count - 1], distance, unmask(caution, CautionFactor.values()),
                    unmask(danger, DangerFactor.values()), java.util.Arrays.copyOf(nodeIds, count));
        }

        private static <E extends Enum<E>> List<E> unmask(int mask, E[] values) {
            if (mask == 0) {
                return List.of();
            }
            List<E> result = new ArrayList<>(Integer.bitCount(mask));
            for (E value : values) {
                if ((mask & (1 << value.ordinal())) != 0) {
                    result.add(value);
                }
            }
            return result;
        }
    }
}
