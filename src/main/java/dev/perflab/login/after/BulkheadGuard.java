package dev.perflab.login.after;

import java.time.Duration;
import java.util.function.Supplier;

import io.github.resilience4j.bulkhead.Bulkhead;
import io.github.resilience4j.bulkhead.BulkheadConfig;
import io.github.resilience4j.bulkhead.BulkheadFullException;
import io.github.resilience4j.bulkhead.BulkheadRegistry;
import io.github.resilience4j.circuitbreaker.CallNotPermittedException;
import io.github.resilience4j.circuitbreaker.CircuitBreaker;
import io.github.resilience4j.circuitbreaker.CircuitBreakerConfig;
import io.github.resilience4j.circuitbreaker.CircuitBreakerRegistry;
import io.github.resilience4j.micrometer.tagged.TaggedBulkheadMetrics;
import io.github.resilience4j.micrometer.tagged.TaggedCircuitBreakerMetrics;
import io.micrometer.core.instrument.Counter;
import io.micrometer.core.instrument.MeterRegistry;

import dev.perflab.login.AuthApiGuard;
import dev.perflab.login.AuthApiProperties;
import dev.perflab.login.AuthApiUnavailableException;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.stereotype.Component;

/**
 * Fast under a slow or dead dependency: a Resilience4j bulkhead lets at most N calls in flight and
 * rejects the excess at once (no waiting), and a circuit breaker stops calling an API whose calls keep
 * failing or timing out, answering 503 in microseconds until a trial call succeeds. Shows as
 * {@code perflab_login_guard_calls_total{outcome,dependency}} (permitted, rejected, short-circuited),
 * {@code resilience4j_bulkhead_available_concurrent_calls} and {@code resilience4j_circuitbreaker_state}.
 * Resilience4j rather than Spring 7's {@code @ConcurrencyLimit}: that one makes the excess wait for a
 * permit instead of rejecting it, and has no circuit breaker.
 */
@Component
@ConditionalOnProperty(name = "perflab.login.guard", havingValue = "bulkhead")
class BulkheadGuard implements AuthApiGuard.Factory {

    private final BulkheadRegistry bulkheads;
    private final CircuitBreakerRegistry breakers;
    private final MeterRegistry registry;
    private final Duration openFor;

    BulkheadGuard(AuthApiProperties properties, MeterRegistry registry) {
        AuthApiProperties.Bulkhead settings = properties.bulkhead();
        this.bulkheads = BulkheadRegistry.of(BulkheadConfig.custom()
                .maxConcurrentCalls(settings.maxConcurrentCalls())
                .maxWaitDuration(Duration.ZERO)
                .build());
        this.breakers = CircuitBreakerRegistry.of(CircuitBreakerConfig.custom()
                .failureRateThreshold(settings.failureRateThreshold())
                .slidingWindowSize(settings.slidingWindowSize())
                .minimumNumberOfCalls(settings.minimumNumberOfCalls())
                .waitDurationInOpenState(settings.waitDurationInOpenState())
                .permittedNumberOfCallsInHalfOpenState(settings.permittedCallsInHalfOpenState())
                .recordExceptions(AuthApiUnavailableException.class)
                .build());
        TaggedBulkheadMetrics.ofBulkheadRegistry(bulkheads).bindTo(registry);
        TaggedCircuitBreakerMetrics.ofCircuitBreakerRegistry(breakers).bindTo(registry);
        this.registry = registry;
        this.openFor = settings.waitDurationInOpenState();
    }

    /** A bulkhead and a circuit breaker of their own for this dependency ({@code name} tag: auth-api, lab-dependency). */
    @Override
    public AuthApiGuard create(String dependency) {
        return new Guarded(bulkheads.bulkhead(dependency), breakers.circuitBreaker(dependency),
                outcome(dependency, "permitted"), outcome(dependency, "rejected"), outcome(dependency, "short-circuited"));
    }

    private final class Guarded implements AuthApiGuard {

        private final Bulkhead bulkhead;
        private final CircuitBreaker circuitBreaker;
        private final Counter permitted;
        private final Counter rejected;
        private final Counter shortCircuited;

        Guarded(Bulkhead bulkhead, CircuitBreaker circuitBreaker, Counter permitted, Counter rejected,
                Counter shortCircuited) {
            this.bulkhead = bulkhead;
            this.circuitBreaker = circuitBreaker;
            this.permitted = permitted;
            this.rejected = rejected;
            this.shortCircuited = shortCircuited;
        }

        @Override
        public <T> T call(Supplier<T> call) {
            try {
                return Bulkhead.decorateSupplier(bulkhead, CircuitBreaker.decorateSupplier(circuitBreaker, () -> {
                    permitted.increment();
                    return call.get();
                })).get();
            } catch (BulkheadFullException e) {
                rejected.increment();
                throw new AuthApiUnavailableException("auth-api-busy",
                        "Too many calls to the auth API are in flight; try again shortly.", Duration.ofSeconds(1), e);
            } catch (CallNotPermittedException e) {
                shortCircuited.increment();
                throw new AuthApiUnavailableException("auth-api-circuit-open",
                        "The auth API is failing; calls to it are paused.", openFor, e);
            }
        }
    }

    private Counter outcome(String dependency, String outcome) {
        return Counter.builder("perflab.login.guard.calls").description("auth API calls by what the guard did")
                .tag("outcome", outcome).tag("dependency", dependency).register(registry);
    }
}
