package dev.perflab.login;

import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.search.Search;
import org.junit.jupiter.api.Test;

import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Login in the runner's interleaved mode, against the real stub: the app runs the pooled client, and a login whose
 * arm takes the before side goes through a per-request client built beside it, one new connection per call.
 */
@IntegrationTest
@TestPropertySource(properties = {"perflab.login.client=pooled", "perflab.lab.interleave.enabled=true",
        "perflab.lab.interleave.arms=slow,fast", "perflab.lab.interleave.sides.slow=before",
        "perflab.lab.interleave.sides.fast=after"})
class InterleavedLoginIT {

    /** A fresh student per run, kept inside the range the stub knows (user1..user100000): 70,000-95,000 and up. */
    private static final AtomicInteger NEXT_USER =
            new AtomicInteger((int) Math.floorMod(System.nanoTime(), 25_000L) + 70_000);

    @LocalServerPort
    int port;

    @Autowired
    MeterRegistry registry;

    private int login(String arm) {
        String body = "{\"loginId\":\"user" + NEXT_USER.incrementAndGet() + "\",\"password\":\""
                + dev.perflab.testing.TestCredentials.MEMBER_PASSWORD + "\"}";
        return new Http(port).post("/api/auth/login", body, "X-Perflab-Arm", arm).status();
    }

    private double opened(String client) {
        var counter = Search.in(registry).name("perflab.login.http.connections.opened").tag("client", client).counter();
        return counter == null ? 0 : counter.count();
    }

    @Test
    void eachArmCallsTheAuthApiThroughItsSidesClient() {
        login("fast"); // opens the pooled client's connection
        double perRequest = opened("per-request");
        double pooled = opened("pooled");

        for (int i = 0; i < 3; i++) {
            assertThat(login("slow")).isEqualTo(200);
            assertThat(login("fast")).isEqualTo(200);
        }

        assertThat(opened("per-request") - perRequest).as("the before arm: a new connection per call").isEqualTo(3);
        assertThat(opened("pooled") - pooled).as("the after arm: the kept-alive connection").isLessThanOrEqualTo(1);
    }

    @Test
    void anUnknownArmIsABadRequest() {
        assertThat(login("other")).isEqualTo(400);
    }
}
