package dev.perflab.route;

import java.util.function.Consumer;

/**
 * Where a {@link RouteLoader} puts a university's batches, one at a time. A loader that finds part-way that what
 * it has fed cannot be served (a cached batch corrupt or of another version, read batch by batch) calls
 * {@link #discard()} and feeds every batch again from the first, from the database.
 */
public interface RouteSink extends Consumer<RouteBatch> {

    /** Forget every batch fed so far. */
    void discard();

    /** A sink that keeps nothing: for a caller that only wants the cache filled. */
    static RouteSink ignoring() {
        return new RouteSink() {
            @Override
            public void accept(RouteBatch batch) {
            }

            @Override
            public void discard() {
            }
        };
    }
}
