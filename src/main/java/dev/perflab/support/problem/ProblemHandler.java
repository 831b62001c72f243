package dev.perflab.support.problem;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Optional;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;
import jakarta.validation.ConstraintViolationException;
import org.apache.tomcat.util.http.InvalidParameterException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;
import org.springframework.http.HttpStatusCode;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.http.converter.HttpMessageNotReadableException;
import org.springframework.lang.Nullable;
import org.springframework.validation.FieldError;
import org.springframework.web.HttpMediaTypeNotAcceptableException;
import org.springframework.web.HttpMediaTypeNotSupportedException;
import org.springframework.web.HttpRequestMethodNotSupportedException;
import org.springframework.web.bind.MethodArgumentNotValidException;
import org.springframework.web.bind.MissingRequestHeaderException;
import org.springframework.web.bind.MissingServletRequestParameterException;
import org.springframework.web.bind.annotation.ExceptionHandler;
import org.springframework.web.bind.annotation.RestControllerAdvice;
import org.springframework.web.context.request.WebRequest;
import org.springframework.web.method.annotation.HandlerMethodValidationException;
import org.springframework.web.method.annotation.MethodArgumentTypeMismatchException;
import org.springframework.web.servlet.mvc.method.annotation.ResponseEntityExceptionHandler;
import org.springframework.web.servlet.resource.NoResourceFoundException;

/**
 * Every error a controller raises becomes {@code application/problem+json} with a stable {@code code}.
 * A client's mistake is a 4xx; an unreachable database or Redis is a 503 {@code database-unavailable} /
 * {@code redis-unavailable} with {@code Retry-After} ({@link Outage}); anything else unexpected is a 500 that says
 * nothing about the internals. Only a failure to write to this very client ({@link ClientDisconnect}) gets no
 * answer: a database socket's EOF or reset is an outage, never "the client went away" (which would be a 200).
 */
@RestControllerAdvice
class ProblemHandler extends ResponseEntityExceptionHandler {

    private static final Logger log = LoggerFactory.getLogger(ProblemHandler.class);
    static final String RETRY_AFTER_SECONDS = "1";
    private final MeterRegistry registry;

    ProblemHandler(MeterRegistry registry) {
        this.registry = registry;
    }

    @ExceptionHandler(ApiException.class)
    ResponseEntity<Object> api(ApiException e) {
        return ResponseEntity.status(e.status()).headers(e.headers())
                .body(ProblemResponses.problem(e.status(), e.code(), e.getMessage()));
    }

    @ExceptionHandler(ConstraintViolationException.class)
    ResponseEntity<Object> constraint(ConstraintViolationException e) {
        Map<String, String> errors = new LinkedHashMap<>();
        e.getConstraintViolations().forEach(v -> errors.put(v.getPropertyPath().toString(), v.getMessage()));
        ProblemDetail problem = ProblemResponses.problem(HttpStatus.BAD_REQUEST, "invalid-request", "The request is invalid.");
        problem.setProperty("errors", errors);
        return ResponseEntity.badRequest().body(problem);
    }

    /** Tomcat could not decode the query string or form ({@code ?delayMs=%zz}): the client's mistake. */
    @ExceptionHandler(InvalidParameterException.class)
    ResponseEntity<Object> undecodableParameters(InvalidParameterException e) {
        return ResponseEntity.badRequest().body(ProblemResponses.problem(HttpStatus.BAD_REQUEST, "invalid-parameter",
                "The query string or form could not be decoded."));
    }

    @ExceptionHandler(Exception.class)
    @Nullable ResponseEntity<Object> unexpected(Exception e) {
        if (ClientDisconnect.isWhileAnswering(e)) {
            log.debug("the client went away while we answered: {}", e.toString());
            return null; // writing to this client failed: nobody reads an answer, and it is not our error
        }
        Optional<Outage> outage = Outage.of(e);
        if (outage.isPresent()) {
            return unavailable(outage.get(), e);
        }
        log.error("unhandled error", e);
        return ResponseEntity.internalServerError()
                .body(ProblemResponses.problem(HttpStatus.INTERNAL_SERVER_ERROR, "internal", "An unexpected error occurred."));
    }

    /** 503 + {@code Retry-After}, counted in {@code perflab_dependency_unavailable_total{dependency}}. */
    private ResponseEntity<Object> unavailable(Outage outage, Exception e) {
        Counter.builder("perflab.dependency.unavailable")
                .description("requests answered 503 because the database or Redis was unavailable")
                .tag("dependency", outage.dependency()).register(registry).increment();
        log.warn("{} unavailable: {}", outage.dependency(), rootCause(e));
        return ResponseEntity.status(HttpStatus.SERVICE_UNAVAILABLE).header(HttpHeaders.RETRY_AFTER, RETRY_AFTER_SECONDS)
                .body(ProblemResponses.problem(HttpStatus.SERVICE_UNAVAILABLE, outage.code(),
                        "The " + outage.dependency() + " is unavailable; retry later (with the same Idempotency-Key)."));
    }

    private static String rootCause(Throwable e) {
        Throwable root = e;
        while (root.getCause() != null && root.getCause() != root) {
            root = root.getCause();
        }
        return root.toString();
    }

    @Override
    protected ResponseEntity<Object> handleExceptionInternal(Exception ex, @Nullable Object body, HttpHeaders headers,
            HttpStatusCode status, WebRequest request) {
        ProblemDetail problem = ProblemResponses.problem(status, codeOf(ex, status), detailOf(ex, body));
        if (ex instanceof MethodArgumentNotValidException invalid) {
            Map<String, String> errors = new LinkedHashMap<>();
            for (FieldError error : invalid.getBindingResult().getFieldErrors()) {
                errors.putIfAbsent(error.getField(), error.getDefaultMessage());
            }
            problem.setProperty("errors", errors);
        }
        return ResponseEntity.status(status).headers(headers).body(problem);
    }

    private static String codeOf(Exception ex, HttpStatusCode status) {
        return switch (ex) {
            case HttpMessageNotReadableException e -> "malformed-body";
            case MethodArgumentNotValidException e -> "invalid-request";
            case HandlerMethodValidationException e -> "invalid-request";
            case MissingRequestHeaderException e -> "missing-header";
            case MissingServletRequestParameterException e -> "missing-parameter";
            case MethodArgumentTypeMismatchException e -> "invalid-parameter";
            case NoResourceFoundException e -> "not-found";
            case HttpRequestMethodNotSupportedException e -> "method-not-allowed";
            case HttpMediaTypeNotSupportedException e -> "unsupported-media-type";
            case HttpMediaTypeNotAcceptableException e -> "not-acceptable";
            default -> "http-" + status.value();
        };
    }

    private static String detailOf(Exception ex, @Nullable Object body) {
        if (ex instanceof HttpMessageNotReadableException) {
            return "The request body is missing or is not valid JSON of the expected shape.";
        }
        if (ex instanceof MethodArgumentNotValidException) {
            return "The request is invalid.";
        }
        if (body instanceof ProblemDetail detail && detail.getDetail() != null) {
            return detail.getDetail();
        }
        return ex instanceof org.springframework.web.ErrorResponse response && response.getBody().getDetail() != null
                ? response.getBody().getDetail() : "The request could not be processed.";
    }
}
