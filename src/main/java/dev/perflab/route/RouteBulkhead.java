package dev.perflab.route;

import java.time.Duration;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.function.Supplier;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.http.HttpStatus;
import org.springframework.stereotype.Component;

/**
 * Bounds how many route requests build a graph at once ({@code perflab.route.concurrency}), for both variants.
 * One request holds tens of megabytes while it decodes and builds (50,000 routes); 50 of them at once on two cores
 * only share the CPU ever more thinly, fill a 1 GB heap and time out their Redis and database calls. Waiting here is
 * cheap and fair; after {@code concurrency-wait} the answer is 503 {@code routes-busy}. The permit covers the build
 * only, never the answer's write to the socket, which lasts as long as the client takes to read it: four slow readers
 * holding the four permits stalled every route read (issue 46, finding 6); {@link RouteReadsPerMember} bounds the
 * writes instead. {@code concurrency = -1} removes the bound: the write-up's service had none, so its stages
 * ({@code route-stages}) run without it, and {@code route-bulkhead} measures what it changes.
 * Metrics: {@code perflab_route_bulkhead_waiting}, {@code perflab_route_bulkhead_active}.
 */
@Component
public class RouteBulkhead {

    private final Semaphore permits;
    private final int size;
    private final Duration wait;

    RouteBulkhead(RouteKnobs knobs, MeterRegistry registry) {
        this.size = knobs.unbounded() ? Integer.MAX_VALUE
                : knobs.concurrency() > 0 ? knobs.concurrency() : 2 * Runtime.getRuntime().availableProcessors();
        this.permits = new Semaphore(size, true);
        this.wait = knobs.concurrencyWait();
        Gauge.builder("perflab.route.bulkhead.waiting", permits, Semaphore::getQueueLength)
                .description("route requests waiting to build a graph").register(registry);
        Gauge.builder("perflab.route.bulkhead.active", permits, p -> size - p.availablePermits())
                .description("route requests building a graph now").register(registry);
    }

    public <T> T run(Supplier<T> work) {
        try {
            if (!permits.tryAcquire(wait.toMillis(), TimeUnit.MILLISECONDS)) {
                throw new Busy();
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new Busy();
        }
        try {
            return work.get();
        } finally {
            permits.release();
        }
    }

    /** 503 with Retry-After: too many route requests are waiting. */
    static final class Busy extends RetryLater {

        Busy() {
            super(HttpStatus.SERVICE_UNAVAILABLE, "routes-busy", "Too many route requests are in progress; retry later.");
        }
    }
}
