package dev.perflab.testing;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import org.springframework.boot.availability.AvailabilityChangeEvent;
import org.springframework.boot.availability.ReadinessState;
import org.springframework.boot.test.context.TestConfiguration;
import org.springframework.context.ApplicationListener;

/** Records when readiness first turned ACCEPTING_TRAFFIC; {@code @Import} it to check what ran before. */
@TestConfiguration
public class ReadinessClock implements ApplicationListener<AvailabilityChangeEvent<ReadinessState>> {

    private final AtomicReference<Instant> acceptingSince = new AtomicReference<>();

    @Override
    public void onApplicationEvent(AvailabilityChangeEvent<ReadinessState> event) {
        if (event.getState() == ReadinessState.ACCEPTING_TRAFFIC) {
            acceptingSince.compareAndSet(null, Instant.now());
        }
    }

    public Instant acceptingSince() {
        return acceptingSince.get();
    }
}
