package dev.perflab.sprout;

import java.util.Locale;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

/**
 * {@code perflab_sprout_requests_total{reader, outcome}}: the requests the sprout server answered
 * ({@code served}: HelloWorld, 404, 405) and refused ({@code rejected}: 400, 408, 411, 413, 431, 503), by reader.
 */
public final class SproutMeters {

    private final Counter served;
    private final Counter rejected;

    public SproutMeters(MeterRegistry registry, SproutKnobs.Reader reader) {
        String name = reader.name().toLowerCase(Locale.ROOT);
        this.served = counter(registry, name, "served");
        this.rejected = counter(registry, name, "rejected");
    }

    private static Counter counter(MeterRegistry registry, String reader, String outcome) {
        return Counter.builder("perflab.sprout.requests").description("requests the sprout server served or refused")
                .tag("reader", reader).tag("outcome", outcome).register(registry);
    }

    void served() {
        served.increment();
    }

    void rejected() {
        rejected.increment();
    }
}
