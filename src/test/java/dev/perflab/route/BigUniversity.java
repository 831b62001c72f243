package dev.perflab.route;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * A university as big as the seeded ones, written by MariaDB itself from its sequence tables: a grid of
 * {@value #WIDTH} x {@value #HEIGHT} intersections, each joined to its right and lower neighbour (49,675 routes, almost
 * every one a core route of its own). Its answer is about 7 MB, larger than any socket buffer on loopback, so a
 * client that stops reading keeps the server's write blocked. Made once per test database: kept when its route
 * count is already right.
 */
final class BigUniversity {

    static final int WIDTH = 125;
    static final int HEIGHT = 200;
    static final int NODES = WIDTH * HEIGHT;
    static final int ROUTES = (WIDTH - 1) * HEIGHT + WIDTH * (HEIGHT - 1);

    private BigUniversity() {
    }

    static void ensure(JdbcTemplate jdbc, long univId) {
        Integer routes = jdbc.queryForObject("SELECT COUNT(*) FROM route WHERE univ_id = ?", Integer.class, univId);
        if (routes != null && routes == ROUTES) {
            return;
        }
        new TransactionTemplate(new DataSourceTransactionManager(jdbc.getDataSource()))
                .executeWithoutResult(status -> write(jdbc, univId));
    }

    private static void write(JdbcTemplate jdbc, long univId) {
        long nodeBase = univId * 100_000L;
        long routeBase = univId * 1_000_000L;
        jdbc.update("DELETE FROM route WHERE univ_id = ?", univId);
        jdbc.update("DELETE FROM node WHERE univ_id = ?", univId);
        jdbc.update("DELETE FROM university WHERE id = ?", univId);
        jdbc.update("INSERT INTO university (id, name, route_version) VALUES (?, ?, 1)", univId, "Big " + univId);
        String seq = "seq_0_to_" + (NODES - 1);
        jdbc.update("INSERT INTO node (id, univ_id, lat, lng) SELECT ? + seq, ?, 37.5 + (seq DIV " + WIDTH
                + ") * 0.0001, 127.0 + (seq MOD " + WIDTH + ") * 0.0001 FROM " + seq, nodeBase, univId);
        jdbc.update("INSERT INTO route (id, univ_id, node1_id, node2_id, distance) SELECT ? + 2 * seq, ?, ? + seq, "
                + "? + seq + 1, 10.0 FROM " + seq + " WHERE seq MOD " + WIDTH + " < " + (WIDTH - 1),
                routeBase, univId, nodeBase, nodeBase);
        jdbc.update("INSERT INTO route (id, univ_id, node1_id, node2_id, distance) SELECT ? + 2 * seq + 1, ?, ? + seq, "
                + "? + seq + " + WIDTH + ", 12.5 FROM " + seq + " WHERE seq < " + (NODES - WIDTH),
                routeBase, univId, nodeBase, nodeBase);
    }
}
