package dev.perflab.route;

import java.sql.ResultSet;
import java.sql.SQLException;
import java.util.ArrayList;
import java.util.List;
import java.util.OptionalLong;
import java.util.function.Consumer;

import org.springframework.http.HttpStatus;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.stereotype.Repository;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.TransactionDefinition;
import org.springframework.transaction.support.TransactionTemplate;

import dev.perflab.support.problem.ApiException;

/**
 * MariaDB access shared by both variants. Routes are streamed with a server cursor (fetch size = batch size)
 * and handed on batch by batch, so that no request holds more than one university's routes, and never a table.
 * A load reads the version and the routes in one read-only transaction: one consistent snapshot.
 */
@Repository
public class RouteRepository {

    static final String ROUTES_OF_UNIVERSITY = """
            SELECT r.id, r.distance, r.caution_factors, r.danger_factors,
                   r.node1_id, n1.lat, n1.lng, r.node2_id, n2.lat, n2.lng
            FROM route r
            JOIN node n1 ON n1.id = r.node1_id
            JOIN node n2 ON n2.id = r.node2_id
            WHERE r.univ_id = ?
            ORDER BY r.id""";

    private final JdbcTemplate jdbc;
    private final TransactionTemplate readOnly;
    private final TransactionTemplate readWrite;

    public RouteRepository(JdbcTemplate jdbc, PlatformTransactionManager transactions) {
        this.jdbc = jdbc;
        this.readOnly = new TransactionTemplate(transactions);
        this.readOnly.setReadOnly(true);
        this.readOnly.setIsolationLevel(TransactionDefinition.ISOLATION_REPEATABLE_READ);
        this.readWrite = new TransactionTemplate(transactions);
    }

    /** The university with the fewest routes (the warm-up's: the path is the same, the bytes fewer), if any. */
    public OptionalLong smallestUniversity() {
        List<Long> ids = jdbc.queryForList("SELECT univ_id FROM route GROUP BY univ_id ORDER BY COUNT(*), univ_id LIMIT 1", Long.class);
        return ids.isEmpty() ? OptionalLong.empty() : OptionalLong.of(ids.getFirst());
    }

    /** The university's current route version, empty when there is no such university. */
    public OptionalLong version(long univId) {
        List<Long> versions = jdbc.queryForList("SELECT route_version FROM university WHERE id = ?", Long.class, univId);
        return versions.isEmpty() ? OptionalLong.empty() : OptionalLong.of(versions.getFirst());
    }

    /**
     * Streams the university's routes in batches of {@code batchSize} to {@code sink}, each stamped with the
     * version read in the same snapshot, and returns that version.
     *
     * @throws ApiException 404 when there is no such university
     */
    public long stream(long univId, int batchSize, Consumer<RouteBatch> sink) {
        Long version = readOnly.execute(status -> {
            long v = version(univId).orElseThrow(() -> unknownUniversity(univId));
            BatchCollector collector = new BatchCollector(univId, v, batchSize, sink);
            jdbc.query(connection -> {
                var statement = connection.prepareStatement(ROUTES_OF_UNIVERSITY, ResultSet.TYPE_FORWARD_ONLY,
                        ResultSet.CONCUR_READ_ONLY);
                statement.setFetchSize(Math.min(batchSize, 10_000));
                statement.setLong(1, univId);
                return statement;
            }, collector::add);
            collector.flush();
            return v;
        });
        return version;
    }

    /**
     * Changes one route and bumps the university's route version in one transaction.
     *
     * @return the new version
     * @throws ApiException 404 when the university or the route (in that university) does not exist
     */
    public long update(long univId, long routeId, RouteChange change) {
        return readWrite.execute(status -> {
            if (jdbc.update("UPDATE university SET route_version = route_version + 1 WHERE id = ?", univId) == 0) {
                throw unknownUniversity(univId);
            }
            int changed = jdbc.update("""
                    UPDATE route SET distance = ?, caution_factors = ?, danger_factors = ?
                    WHERE id = ? AND univ_id = ?""", change.distance(), Factors.join(change.cautionFactors()),
                    Factors.join(change.dangerFactors()), routeId, univId);
            if (changed == 0) {
                throw new ApiException(HttpStatus.NOT_FOUND, "route-not-found",
                        "University " + univId + " has no route " + routeId + ".");
            }
            return version(univId).orElseThrow();
        });
    }

    public static ApiException unknownUniversity(long univId) {
        return new ApiException(HttpStatus.NOT_FOUND, "university-not-found", "There is no university " + univId + ".");
    }

    /** Turns streamed rows into batches and hands each full batch on at once. */
    private static final class BatchCollector {

        private final long univId;
        private final long version;
        private final int batchSize;
        private final Consumer<RouteBatch> sink;
        private List<LightRoute> routes = new ArrayList<>();
        private int index;

        BatchCollector(long univId, long version, int batchSize, Consumer<RouteBatch> sink) {
            this.univId = univId;
            this.version = version;
            this.batchSize = batchSize;
            this.sink = sink;
        }

        void add(ResultSet rs) throws SQLException {
            routes.add(new LightRoute(rs.getLong(1), rs.getDouble(2),
                    new LightNode(rs.getLong(5), rs.getDouble(6), rs.getDouble(7)),
                    new LightNode(rs.getLong(8), rs.getDouble(9), rs.getDouble(10)),
                    Factors.caution(rs.getString(3)), Factors.danger(rs.getString(4))));
            if (routes.size() >= batchSize) {
                flush();
            }
        }

        void flush() {
            if (!routes.isEmpty() || index == 0) {
                sink.accept(new RouteBatch(univId, version, index++, routes));
                routes = new ArrayList<>();
            }
        }
    }
}
