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
}
