package dev.perflab.support.security.guard;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.stereotype.Component;

/**
 * {@code /actuator/health}'s {@code guards}: always UP (the guards count locally while Redis is down, so they never
 * stop the app, and Redis has its own entry), with details, shown to the admin only, of where tries are counted now
 * ({@code redis}, {@code shared_sql} or {@code local}), how many were counted outside Redis since startup, and how
 * many of those in this instance only. This replaces the anonymous
 * {@code perflab_guard_unavailable_total}, which told anyone when the guards were weakest.
 */
@Component("guards")
class GuardsHealth implements HealthIndicator {

    private final GuessCounter counter;

    GuardsHealth(GuessCounter counter) {
        this.counter = counter;
    }

    @Override
    public Health health() {
        return Health.up().withDetail("store", counter.store().name().toLowerCase(java.util.Locale.ROOT))
                .withDetail("fallbackTries", counter.fallbacks()).withDetail("localTries", counter.localFallbacks()).build();
    }
}
