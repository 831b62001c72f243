package dev.perflab.login;

import dev.perflab.testing.IntegrationTest;

import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** The contract on {@code perflab.login.client=pooled}. */
@IntegrationTest
@TestPropertySource(properties = "perflab.login.client=pooled")
class PooledLoginIT extends LoginContract {

    @Override
    void assertConnectionUse(double opened, double requests, int calls) {
        assertThat(requests).isEqualTo(calls);
        assertThat(opened).as("sequential calls reuse one kept-alive connection").isLessThanOrEqualTo(1);
    }
}
