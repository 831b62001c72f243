package dev.perflab.login;

import java.time.Duration;

import dev.perflab.support.problem.ApiException;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

/** The auth API cannot answer now: 503 with {@code Retry-After}, whether it is down, slow, busy or its circuit is open. */
public class AuthApiUnavailableException extends ApiException {

    private final Duration retryAfter;

    public AuthApiUnavailableException(String code, String detail, Duration retryAfter, Throwable cause) {
        super(HttpStatus.SERVICE_UNAVAILABLE, code, detail);
        this.retryAfter = retryAfter;
        if (cause != null) {
            initCause(cause);
        }
    }

    public static AuthApiUnavailableException down(Throwable cause) {
        return new AuthApiUnavailableException("auth-api-unavailable",
                "The external auth API did not answer in time; try again shortly.", Duration.ofSeconds(1), cause);
    }

    @Override
    public HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(Math.max(1, (retryAfter.toMillis() + 999) / 1000)));
        return headers;
    }
}
