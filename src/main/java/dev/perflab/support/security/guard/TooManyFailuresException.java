package dev.perflab.support.security.guard;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import dev.perflab.support.problem.ApiException;

/** 429 with {@code Retry-After} (whole seconds, rounded up): a guessable secret was guessed wrong too often. */
public class TooManyFailuresException extends ApiException {

    private final long retryAfterSeconds;

    public TooManyFailuresException(String code, String detail, long blockedUntilMs, long nowMs) {
        super(HttpStatus.TOO_MANY_REQUESTS, code, detail);
        this.retryAfterSeconds = Math.max(1, (blockedUntilMs - nowMs + 999) / 1000);
    }

    public long retryAfterSeconds() {
        return retryAfterSeconds;
    }

    @Override
    public HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, Long.toString(retryAfterSeconds));
        return headers;
    }
}
