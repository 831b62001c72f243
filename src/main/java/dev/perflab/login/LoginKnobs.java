package dev.perflab.login;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The login feature's knobs (seeds 003 and 002).
 *
 * @param client {@code per-request}: a new TCP + TLS connection for every call; {@code pooled}: kept-alive pooled connections
 * @param warmup {@code on}: an ApplicationRunner warms the login path and opens the pool before readiness
 * @param guard  {@code none}: a slow auth API holds a request thread until the timeout; {@code bulkhead}: at most N
 *               concurrent calls, the excess rejected at once, and a circuit breaker
 */
@ConfigurationProperties("perflab.login")
public record LoginKnobs(
        @DefaultValue("per-request") Client client,
        @DefaultValue("off") Warmup warmup,
        @DefaultValue("none") Guard guard) {

    public enum Client { PER_REQUEST, POOLED }

    public enum Warmup { OFF, ON }

    public enum Guard { NONE, BULKHEAD }
}
