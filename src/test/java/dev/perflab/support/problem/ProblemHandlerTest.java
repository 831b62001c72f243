package dev.perflab.support.problem;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.EOFException;
import java.io.IOException;
import java.net.SocketException;
import java.sql.SQLNonTransientConnectionException;
import java.sql.SQLTransientConnectionException;

import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.apache.catalina.connector.ClientAbortException;
import org.junit.jupiter.api.Test;
import org.springframework.dao.DataAccessResourceFailureException;
import org.springframework.data.redis.RedisConnectionFailureException;
import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.transaction.TransactionSystemException;

class ProblemHandlerTest {

    private final SimpleMeterRegistry registry = new SimpleMeterRegistry();
    private final ProblemHandler handler = new ProblemHandler(registry);

    @Test
    void aClientThatWentAwayWhileWeAnsweredGetsNoAnswerAndIsNotAServerError() {
        Exception brokenPipe = new IllegalStateException("write failed",
                new ClientAbortException(new IOException("Broken pipe")));

        assertThat(handler.unexpected(brokenPipe)).isNull();
    }

    @Test
    void aBrokenPipeThatIsNotTheClientsIsNeverASuccess() {
        Exception brokenPipe = new IllegalStateException("write failed", new IOException("Broken pipe"));

        assertThat(handler.unexpected(brokenPipe)).isNotNull();
        assertThat(handler.unexpected(brokenPipe).getStatusCode().is2xxSuccessful()).isFalse();
    }

    /**
     * Issue 14, finding 1: a database socket's EOF or reset, wrapped in a transaction exception (not a
     * DataAccessException, which Spring's helper excludes), was taken for the client's and answered 200 with no body.
     */
    @Test
    void aDatabaseSocketsEofOrResetIsA503DatabaseUnavailableNotAnEmpty200() {
        Exception eof = new CannotCreateTransactionException("Could not open JDBC Connection for transaction",
                new SQLNonTransientConnectionException("(conn=42) unexpected end of stream", "08000",
                        new EOFException("unexpected end of stream")));
        Exception reset = new TransactionSystemException("Could not commit JDBC transaction",
                new SQLNonTransientConnectionException("(conn=42) Socket error", "08000",
                        new SocketException("Connection reset by peer")));

        assertUnavailable(handler.unexpected(eof), "database-unavailable");
        assertUnavailable(handler.unexpected(reset), "database-unavailable");
        assertThat(registry.get("perflab.dependency.unavailable").tag("dependency", "database").counter().count()).isEqualTo(2);
    }

    /** Seen in the chaos suite during a MariaDB restart: the commit failed, then the rollback on the dead connection. */
    @Test
    void aRollbackOnAClosedConnectionIsA503() {
        assertUnavailable(handler.unexpected(new TransactionSystemException("JDBC rollback failed",
                new java.sql.SQLException("Connection is closed"))), "database-unavailable");
    }

    @Test
    void aDataAccessFailureIsA503Too() {
        assertUnavailable(handler.unexpected(new DataAccessResourceFailureException("read failed",
                new SQLNonTransientConnectionException("(conn=42) unexpected end of stream", "08000"))), "database-unavailable");
    }

    @Test
    void aResetAtCommitOrAnEmptyPoolIsA503Too() {
        assertUnavailable(handler.unexpected(new TransactionSystemException("Could not commit JDBC transaction",
                new SQLNonTransientConnectionException("Connection reset", "08000", new SocketException("Connection reset")))),
                "database-unavailable");
        assertUnavailable(handler.unexpected(new CannotGetJdbcConnectionException("Failed to obtain JDBC Connection",
                new SQLTransientConnectionException("perflab - Connection is not available, request timed out after 5000ms."))),
                "database-unavailable");
    }

    @Test
    void anUnreachableRedisIsA503RedisUnavailable() {
        assertUnavailable(handler.unexpected(new RedisConnectionFailureException("Unable to connect to Redis")), "redis-unavailable");
        assertThat(registry.get("perflab.dependency.unavailable").tag("dependency", "redis").counter().count()).isEqualTo(1);
    }

    @Test
    void anyOtherExceptionIsA500ProblemWithoutItsMessage() {
        ResponseEntity<Object> answer = handler.unexpected(new IllegalStateException("secret detail"));

        assertThat(answer).isNotNull();
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
        ProblemDetail problem = (ProblemDetail) answer.getBody();
        assertThat(problem.getProperties()).containsEntry("code", "internal");
        assertThat(problem.getDetail()).doesNotContain("secret");
    }

    private static void assertUnavailable(ResponseEntity<Object> answer, String code) {
        assertThat(answer).isNotNull();
        assertThat(answer.getStatusCode()).isEqualTo(HttpStatus.SERVICE_UNAVAILABLE);
        assertThat(answer.getHeaders().getFirst(HttpHeaders.RETRY_AFTER)).isEqualTo("1");
        ProblemDetail problem = (ProblemDetail) answer.getBody();
        assertThat(problem.getProperties()).containsEntry("code", code);
        assertThat(problem.getDetail()).doesNotContain("conn=", "Exception", "5000ms");
    }
}
