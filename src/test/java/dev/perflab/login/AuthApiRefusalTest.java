package dev.perflab.login;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/** An auth API answer that refuses what was sent is a wrong password (counted), not an uncounted 503. */
class AuthApiRefusalTest {

    @Test
    void fourHundredsButTimeoutAndTooManyRefuseTheCredentials() {
        assertThat(java.util.List.of(400, 401, 403, 404, 422)).allMatch(RestClientAuthApi::refusesCredentials);
        assertThat(java.util.List.of(200, 408, 429, 500, 502, 503)).noneMatch(RestClientAuthApi::refusesCredentials);
    }
}
