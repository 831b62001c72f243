package dev.perflab.support.problem;

import java.sql.SQLException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLRecoverableException;
import java.sql.SQLTransientConnectionException;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.Optional;

import io.lettuce.core.RedisCommandTimeoutException;
import io.lettuce.core.RedisConnectionException;
import io.lettuce.core.RedisException;
import redis.clients.jedis.exceptions.JedisConnectionException;

import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.dao.QueryTimeoutException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

/**
 * Tells a dependency outage apart from a bug: a failure whose cause chain shows that MariaDB or Redis could not
 * be reached, was cut off mid-statement or did not answer in time. Such a failure is a 503 with
 * {@code Retry-After} and the stable code {@link #code()}, never a 500 and never a 2xx.
 *
 * @param dependency {@code database} or {@code redis}: the {@code dependency} tag of
 *                   {@code perflab_dependency_unavailable_total}
 */
public record Outage(String dependency) {

    static final Outage DATABASE = new Outage("database");
    static final Outage REDIS = new Outage("redis");

    /** {@code database-unavailable} or {@code redis-unavailable}. */
    public String code() {
        return dependency + "-unavailable";
    }

    /** The outage behind {@code failure}, or empty when it is something else (a bug: 500). */
    public static Optional<Outage> of(Throwable failure) {
        List<Throwable> chain = chain(failure);
        for (Throwable t : chain) {
            if (t instanceof RedisConnectionFailureException || t instanceof RedisConnectionException
                    || t instanceof RedisCommandTimeoutException || t instanceof JedisConnectionException
                    || t.getClass() == RedisException.class) { // Lettuce's "Connection closed" mid-command
                return Optional.of(REDIS);
            }
        }
        for (Throwable t : chain) {
            if (t instanceof SQLException sql && isConnectionFailure(sql)
                    || t instanceof TransactionSystemException tx && tx.getCause() instanceof SQLException // commit/rollback failed
                    || t instanceof CannotCreateTransactionException
                    || t instanceof DataAccessResourceFailureException
                    || t instanceof QueryTimeoutException
                    || t instanceof java.sql.SQLTimeoutException) {
                return Optional.of(DATABASE);
            }
        }
        return Optional.empty();
    }

    /**
     * The failure, its causes and suppressed exceptions, and the exception a failed rollback hides (a rollback on a
     * killed connection fails with "Connection is closed" and keeps the original failure aside).
     */
    private static List<Throwable> chain(Throwable failure) {
        List<Throwable> chain = new ArrayList<>();
        Deque<Throwable> todo = new ArrayDeque<>(List.of(failure));
        while (!todo.isEmpty() && chain.size() < 64) {
            Throwable t = todo.pop();
            if (chain.stream().anyMatch(seen -> seen == t)) {
                continue;
            }
            chain.add(t);
            if (t.getCause() != null) {
                todo.add(t.getCause());
            }
            todo.addAll(List.of(t.getSuppressed()));
            if (t instanceof TransactionSystemException tx && tx.getApplicationException() != null) {
                todo.add(tx.getApplicationException());
            }
        }
        return chain;
    }

    /**
     * SQLSTATE class 08 (connection exception), the JDBC connection exception types (a socket reset or EOF, a
     * connection killed by {@code KILL}, Hikari's connection-timeout), and what MariaDB answers while it shuts down
     * or kills a session: 1053 server shutdown, 1317 query interrupted, 1927 connection killed (SQLSTATE 70100).
     */
    private static boolean isConnectionFailure(SQLException sql) {
        String state = sql.getSQLState();
        int code = sql.getErrorCode();
        return sql instanceof SQLNonTransientConnectionException || sql instanceof SQLTransientConnectionException
                || sql instanceof SQLRecoverableException
                || state != null && (state.startsWith("08") || state.equals("70100"))
                || code == 1053 || code == 1317 || code == 1927;
    }
}
