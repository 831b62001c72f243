package dev.perflab.route;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * At most {@code perflab.route.member-concurrency} route reads in flight per member on this instance, from the
 * request's arrival to its answer's last byte; one more is refused at once with 429 {@code too-many-route-reads} and
 * {@code Retry-After}, never queued. Why: a read holds a Tomcat thread while its client takes the ~4 MB answer, as
 * slowly as it likes, and the {@link RouteBulkhead} no longer bounds that part; without this one account with many
 * connections could hold every thread and the app would stop answering (issue 46, finding 6). A member's own k6
 * virtual user or browser tab reads one answer at a time, so honest clients never meet it.
 * Metrics: {@code perflab_route_reads_in_flight}, {@code perflab_route_reads_refused_total}.
 */
@Component
public class RouteReadsPerMember {

    private final ConcurrentHashMap<Long, Integer> inFlight = new ConcurrentHashMap<>();
    private final AtomicInteger total = new AtomicInteger();
    private final int limit;
    private final Counter refused;

    RouteReadsPerMember(RouteKnobs knobs, MeterRegistry registry) {
        this.limit = knobs.memberConcurrency();
        Gauge.builder("perflab.route.reads.in.flight", total, AtomicInteger::get)
                .description("route reads in flight, their answers' writing included").register(registry);
        this.refused = Counter.builder("perflab.route.reads.refused")
                .description("route reads refused because the member already had member-concurrency in flight")
                .register(registry);
    }

    /** A slot for one read of {@code memberId}'s, to close when its answer is written; 429 when none is free. */
    public Slot enter(long memberId) {
        if (limit > 0 && !take(memberId)) {
            refused.increment();
            throw new TooManyReads(limit);
        }
        total.incrementAndGet();
        return () -> leave(memberId);
    }

    private boolean take(long memberId) {
        boolean[] taken = {false};
        inFlight.compute(memberId, (id, n) -> {
            int now = n == null ? 0 : n;
            taken[0] = now < limit;
            return taken[0] ? now + 1 : now;
        });
        return taken[0];
    }

    private void leave(long memberId) {
        total.decrementAndGet();
        if (limit > 0) {
            inFlight.computeIfPresent(memberId, (id, n) -> n > 1 ? n - 1 : null);
        }
    }

    /** One read's place; closing it twice would free two, so callers close it once (try-with-resources). */
    @FunctionalInterface
    public interface Slot extends AutoCloseable {

        @Override
        void close();
    }

    /** 429 with Retry-After: the member already has {@code member-concurrency} route reads in flight. */
    static final class TooManyReads extends RetryLater {

        TooManyReads(int limit) {
            super(HttpStatus.TOO_MANY_REQUESTS, "too-many-route-reads",
                    "At most " + limit + " route reads per member at once; wait for one to finish.");
        }
    }
}
