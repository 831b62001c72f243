package dev.perflab.route;

/** Where a request's routes come from: the database every time ({@code before}) or Redis, cache-aside ({@code after}). */
public interface RouteLoader {

    /**
     * Feeds every batch of the university's routes, all of one version, to {@code sink}; if it has to start again
     * part-way, it calls {@link RouteSink#discard()} first.
     *
     * @return the version the batches carry
     * @throws dev.perflab.support.problem.ApiException 404 when there is no such university
     */
    long load(long univId, RouteSink sink);
}
