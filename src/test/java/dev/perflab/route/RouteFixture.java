package dev.perflab.route;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A small university written straight into MariaDB: three walkways between intersections A and B (a chain of
 * three routes, the direct route {@link #DIRECT_ROUTE}, a chain of two), a two-route dead end from B, and a
 * three-route cycle of degree-2 nodes. 11 routes, 5 core routes. Each call gets a fresh route version, so a
 * cache left by an earlier run never matches.
 */
final class RouteFixture {

    static final int ROUTES = 11;
    static final int CORE_ROUTES = 5;
    /** The route id offset of the direct A-B route: a core route of its own, whose distance tests change. */
    static final long DIRECT_ROUTE = 4;
    /**
     * Each fixture's version, a step apart: a test's route changes bump the version by one each, and the next
     * fixture's version must not meet one of them, or a cached copy of the changed routes would pass for it.
     */
    private static final long VERSION_STEP = 1_000;
    private static final AtomicLong VERSIONS = new AtomicLong(System.currentTimeMillis() * VERSION_STEP);

    private final JdbcTemplate jdbc;
    private final TransactionTemplate transaction;

    RouteFixture(JdbcTemplate jdbc) {
        this.jdbc = jdbc;
        this.transaction = new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()));
    }

    /**
     * (Re)creates university {@code univId} in one transaction (a pool in manual-commit mode, as the after preset's,
     * would roll back writes made outside one); returns its route version.
     */
    long create(long univId) {
        return transaction.execute(status -> write(univId));
    }

    private long write(long univId) {
        long version = VERSIONS.addAndGet(VERSION_STEP);
        jdbc.update("DELETE FROM route WHERE univ_id = ?", univId);
        jdbc.update("DELETE FROM node WHERE univ_id = ?", univId);
        jdbc.update("DELETE FROM university WHERE id = ?", univId);
        jdbc.update("INSERT INTO university (id, name, route_version) VALUES (?, ?, ?)", univId, "Test " + univId, version);
        long n = univId * 1000;
        // nodes: A=1, B=2, x1=3, x2=4, y1=5, t1=6, t2=7, c1=8, c2=9, c3=10
        List<Object[]> nodes = new ArrayList<>();
        for (int i = 1; i <= 10; i++) {
            nodes.add(new Object[] {n + i, univId, 37.5 + i * 0.0001, 127.0 + i * 0.0001});
        }
        jdbc.batchUpdate("INSERT INTO node (id, univ_id, lat, lng) VALUES (?, ?, ?, ?)", nodes);
        long[][] edges = {{1, 3}, {3, 4}, {4, 2}, {1, 2}, {1, 5}, {5, 2}, {2, 6}, {6, 7}, {8, 9}, {9, 10}, {10, 8}};
        List<Object[]> routes = new ArrayList<>();
        for (int i = 0; i < edges.length; i++) {
            String caution = i == 1 ? "SLOPE" : "";
            String danger = i == 7 ? "STAIRS" : "";
            routes.add(new Object[] {n + i + 1, univId, n + edges[i][0], n + edges[i][1], 10.0 + i, caution, danger});
        }
        jdbc.batchUpdate("""
                INSERT INTO route (id, univ_id, node1_id, node2_id, distance, caution_factors, danger_factors)
                VALUES (?, ?, ?, ?, ?, ?, ?)""", routes);
        return version;
    }

    static long directRouteId(long univId) {
        return univId * 1000 + DIRECT_ROUTE;
    }

    static long nodeA(long univId) {
        return univId * 1000 + 1;
    }

    static long nodeB(long univId) {
        return univId * 1000 + 2;
    }
}
