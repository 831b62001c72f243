package dev.perflab.support.problem;

import org.springframework.http.HttpStatus;

/**
 * A client-visible failure with a stable {@code code}; features throw subclasses or instances of it and
 * {@link ProblemHandler} renders it as problem+json.
 */
public class ApiException extends RuntimeException {

    private final HttpStatus status;
    private final String code;

    public ApiException(HttpStatus status, String code, String detail) {
        super(detail);
        this.status = status;
        this.code = code;
    }

    public HttpStatus status() {
        return status;
    }

    public String code() {
        return code;
    }

    /** Extra headers for the response, such as {@code Retry-After}; none by default. */
    public org.springframework.http.HttpHeaders headers() {
        return org.springframework.http.HttpHeaders.EMPTY;
    }
}
