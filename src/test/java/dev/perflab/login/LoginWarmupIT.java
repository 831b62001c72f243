package dev.perflab.login;


import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.login.after.LoginWarmup;
import dev.perflab.testing.IntegrationTest;
import dev.perflab.testing.ReadinessClock;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.context.annotation.Import;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/** {@code perflab.login.warmup=on} finishes, with the pool open, before readiness accepts traffic. */
@IntegrationTest
@Import(ReadinessClock.class)
@TestPropertySource(properties = {
        "perflab.login.warmup=on",
        "perflab.login.client=pooled",
        "perflab.login.auth-api.warmup.connections=4",
        "perflab.login.auth-api.warmup.logins=20"})
class LoginWarmupIT {

    @Autowired
    LoginWarmup warmup;

    @Autowired
    ReadinessClock readiness;

    @Autowired
    MeterRegistry registry;

    @Test
    void warmupFinishesBeforeReadinessAcceptsTraffic() {
        LoginWarmup.Result result = warmup.result();
        assertThat(result).isNotNull();
        assertThat(result.timedOut()).isFalse();
        assertThat(result.pings()).isEqualTo(4);
        assertThat(result.logins()).isEqualTo(20);
        assertThat(result.failures()).isZero();
        assertThat(readiness.acceptingSince()).isNotNull();
        assertThat(result.finishedAt()).isBefore(readiness.acceptingSince());
    }

    @Test
    void warmupLeavesLiveConnectionsInThePool() {
        double pooled = registry.get("httpcomponents.httpclient.pool.total.connections").tag("state", "available").gauge().value()
                + registry.get("httpcomponents.httpclient.pool.total.connections").tag("state", "leased").gauge().value();
        assertThat(pooled).isGreaterThanOrEqualTo(1);
        assertThat(registry.get("perflab.login.http.connections.opened").counter().count()).isBetween(1.0, 4.0);
    }
}
