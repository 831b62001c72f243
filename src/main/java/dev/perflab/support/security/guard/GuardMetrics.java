package dev.perflab.support.security.guard;

import java.util.List;

import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.stereotype.Component;

/**
 * {@code perflab_guard_failures_total{guard}} (wrong guesses counted) and {@code perflab_guard_refusals_total{guard}}
 * (tries refused with 429), for the guards {@code pin}, {@code login-id} and {@code login-address}; registered at 0
 * so that a dashboard shows a flat line, not "no data", until someone guesses.
 */
@Component
public class GuardMetrics {

    public static final List<String> GUARDS = List.of("pin", "login-id", "login-address");

    private final MeterRegistry registry;

    GuardMetrics(MeterRegistry registry) {
        this.registry = registry;
        GUARDS.forEach(guard -> {
            failures(guard);
            refusals(guard);
        });
    }

    public void failed(String guard) {
        failures(guard).increment();
    }

    public void refused(String guard) {
        refusals(guard).increment();
    }

    private Counter failures(String guard) {
        return Counter.builder("perflab.guard.failures").description("wrong guesses of a PIN or password, counted")
                .tag("guard", guard).register(registry);
    }

    private Counter refusals(String guard) {
        return Counter.builder("perflab.guard.refusals").description("tries refused after too many wrong guesses (429)")
                .tag("guard", guard).register(registry);
    }
}
