package dev.perflab.route;

import java.util.List;
import java.util.RandomAccess;

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
     * Every route has both nodes and no null factor, and every list is array-backed ({@link RandomAccess}): what a
     * decoded value must satisfy before it is used. The lists are walked by index here and in {@link RouteGraph}, and
     * every codec decodes to such lists; a value that brings a linked list (Fory writes the concrete class) would make
     * each of those walks quadratic. Static, so that no codec mistakes it for a property.
     */
    public static boolean wellFormed(RouteBatch batch) {
        List<LightRoute> routes = batch.routes();
        if (!(routes instanceof RandomAccess)) {
            return false;
        }
        for (int i = 0; i < routes.size(); i++) { // indexed, here and below: no iterator per route and per list
            LightRoute route = routes.get(i);
            if (route == null || route.node1() == null || route.node2() == null
                    || !indexedWithoutNull(route.cautionFactors()) || !indexedWithoutNull(route.dangerFactors())) {
                return false;
            }
        }
        return true;
    }

    private static boolean indexedWithoutNull(List<?> list) { // List.of(...).contains(null) would throw
        if (!(list instanceof RandomAccess)) {
            return false;
        }
        for (int i = 0; i < list.size(); i++) {
            if (list.get(i) == null) {
                return false;
            }
        }
        return true;
    }
}
