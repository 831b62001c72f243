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
        for (LightRoute route : batch.routes()) {
            if (route == null || route.node1() == null || route.node2() == null
                    || hasNull(route.cautionFactors()) || hasNull(route.dangerFactors())) {
                return false;
            }
        }
        return true;
    }

    private static boolean hasNull(List<?> list) { // List.of(...).contains(null) would throw
        for (Object element : list) {
            if (element == null) {
                return true;
            }
        }
        return false;
    }
}
