package dev.perflab.support.warmup;


import org.junit.jupiter.api.Test;

import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.ReadinessClock;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code perflab.server.warmup=on} sends its requests, all answered 2xx, before readiness accepts traffic. */
@IntegrationTest
@Import(ReadinessClock.class)
@TestPropertySource(properties = {"perflab.server.warmup=on", "perflab.warmup.requests=40", "perflab.login.client=pooled"})
class ServerWarmupIT {

    @Autowired
    ServerWarmup warmup;

    @Autowired
    ReadinessClock readiness;

    @Test
    void everyWarmupRequestSucceedsBeforeReadinessAcceptsTraffic() {
        SelfRequests.Outcome outcome = warmup.outcome();

        assertThat(outcome).isNotNull();
        assertThat(outcome.succeeded()).isEqualTo(40);
        assertThat(outcome.failed()).isZero();
        assertThat(readiness.acceptingSince()).isNotNull();
        assertThat(warmup.finishedAt()).isBefore(readiness.acceptingSince());
    }
}
