package dev.perflab.route;

import org.springframework.core.Ordered;
import org.springframework.core.annotation.Order;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.jdbc.CannotGetJdbcConnectionException;
import org.springframework.transaction.CannotCreateTransactionException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;

import dev.perflab.support.problem.ProblemResponses;

/**
 * When no database connection frees up in time (the {@code cache=off} baseline under seed 001's 50 VUs holds one
 * per request for the whole 50,000-row stream), the answer is 503 {@code database-busy} with {@code Retry-After},
 * not a 500: the server is overloaded, nothing is broken.
 */
@RestControllerAdvice(assignableTypes = RouteController.class)
@Order(Ordered.HIGHEST_PRECEDENCE)
class RouteProblems {

    @ExceptionHandler({CannotCreateTransactionException.class, CannotGetJdbcConnectionException.class})
    ResponseEntity<ProblemDetail> databaseBusy(RuntimeException e) {
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header("Retry-After", "1")
                .body(ProblemResponses.problem(HttpStatus.SERVICE_UNAVAILABLE, "database-busy",
                        "No database connection became free in time; retry later."));
    }
}
