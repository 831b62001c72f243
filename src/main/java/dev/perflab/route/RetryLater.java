package dev.perflab.route;

import org.springframework.http.HttpHeaders;
import org.springframework.http.HttpStatus;

import dev.perflab.support.problem.ApiException;

/** A route refusal the client may retry in a second: its problem carries {@code Retry-After: 1}. */
class RetryLater extends ApiException {

    RetryLater(HttpStatus status, String code, String detail) {
        super(status, code, detail);
    }

    @Override
    public HttpHeaders headers() {
        HttpHeaders headers = new HttpHeaders();
        headers.set(HttpHeaders.RETRY_AFTER, "1");
        return headers;
    }
}
