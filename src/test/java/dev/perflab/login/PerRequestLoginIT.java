package dev.perflab.login;

import dev.perflab.testing.IntegrationTest;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract on {@code perflab.login.client=per-request} (the baseline). */
@IntegrationTest
class PerRequestLoginIT extends LoginContract {

    @Override
    void assertConnectionUse(double opened, double requests, int calls) {
        assertThat(requests).isEqualTo(calls);
        assertThat(opened).as("one new connection per call").isEqualTo(calls);
    }
}
