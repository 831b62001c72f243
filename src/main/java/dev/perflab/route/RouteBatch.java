package dev.perflab.route;

import java.util.List;

/**
 * The unit of caching: up to {@code batch-size} routes of one university, stamped with the university's route
 * version and the batch's index so that a reader can reject a batch of another version (no mixed responses).
 * It is the only type a {@link RouteCodec} reads.
 */
public record RouteBatch(long univId, long version, int index, List<LightRoute> routes) {

    public RouteBatch {
        routes = routes == null ? List.of() : routes;
    }

    /**
     * Every route has both nodes and no null factor: what a decoded value must satisfy before it is used. Static, so
     * that no codec mistakes it for a property.
     */
    public static boolean wellFormed(RouteBatch batch) {
        List<LightRoute> routes = batch.routes();
        for (int i = 0; i < routes.size(); i++) { // indexed, here and below: no iterator per route and per list
            LightRoute route = routes.get(i);
            if (route == null || route.node1() == null || route.node2() == null
                    || hasNull(route.cautionFactors()) || hasNull(route.dangerFactors())) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasNull(List<?> list) { // List.of(...).contains(null) would throw
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                return true;
            }
        }
        return false;
    }
}
