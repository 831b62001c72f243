package dev.perflab.lab;

import java.util.List;

import io.micrometer.core.instrument.MeterRegistry;
import org.junit.jupiter.api.Test;

import dev.perflab.support.security.TokenService;
import dev.perflab.testing.Http;
import dev.perflab.testing.IntegrationTest;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.web.server.LocalServerPort;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The queued {@code @Async} endpoint with a pool of 2, a queue of 2 and 2 s tasks, on 4 Tomcat threads: of 20
 * concurrent calls, the 4 that fit are answered after their turn and the rest are rejected at once, while the
 * accepted ones hold no request thread.
 */
@IntegrationTest
@TestPropertySource(properties = {
        "perflab.lab.queued.pool-size=2",
        "perflab.lab.queued.queue-capacity=2",
        "perflab.lab.queued.task-time=2s",
        "perflab.server.threads=platform",
        "server.tomcat.threads.max=4",
        "server.tomcat.threads.min-spare=4"})
class QueuedDependencyIT {

    private static final int CLIENTS = 20;

    @LocalServerPort
    int port;

    @Autowired
    TokenService tokens;

    @Autowired
    MeterRegistry registry;

    @Test
    void theCallsBeyondPoolAndQueueAreRejectedAtOnceAndTheAcceptedOnesComplete() {
        String token = "Bearer " + tokens.issue(1, "perflab-admin", List.of(TokenService.ADMIN)).accessToken();
        double acceptedBefore = count("accepted");
        double rejectedBefore = count("rejected");

        List<Http.Response> arrived = new Http(port).getConcurrently(CLIENTS, "/api/lab/dependency/queued",
                "Authorization", token);

        List<Http.Response> accepted = arrived.stream().filter(r -> r.status() == 200).toList();
        List<Http.Response> rejected = arrived.stream().filter(r -> r.status() != 200).toList();
        // pool + queue = 4 fit; a call that arrived after a worker freed up may fit too, never most of them
        assertThat(accepted.size()).isBetween(4, 6);
        assertThat(rejected).hasSize(CLIENTS - accepted.size()).allSatisfy(r -> {
            assertThat(r.status()).isEqualTo(503);
            assertThat(r.contentType()).startsWith("application/problem+json");
            assertThat(r.json().at("/code").asString()).isEqualTo("lab-queue-full");
            assertThat(r.header("Retry-After")).isEqualTo("2");
        });
        // the accepted calls held no request thread: every rejection came back before the first accepted answer
        assertThat(arrived.subList(0, rejected.size())).containsExactlyElementsOf(rejected);
        assertThat(accepted).allSatisfy(r -> {
            assertThat(r.json().at("/taskMs").asLong()).isEqualTo(2000);
            assertThat(r.json().at("/worker").asString()).startsWith("lab-queued-");
        });
        assertThat(count("accepted") - acceptedBefore).isEqualTo(accepted.size());
        assertThat(count("rejected") - rejectedBefore).isEqualTo(rejected.size());
        assertThat(registry.get("executor.queued").tag("name", "labQueuedExecutor").gauge().value()).isZero();
    }

    @Test
    void aMemberCannotCallTheLab() {
        String member = "Bearer " + tokens.issue(1, "user1").accessToken();
        assertThat(new Http(port).get("/api/lab/dependency/queued", "Authorization", member).status()).isEqualTo(403);
    }

    private double count(String outcome) {
        return registry.get("perflab.lab.queued.calls").tag("outcome", outcome).counter().count();
    }
}
