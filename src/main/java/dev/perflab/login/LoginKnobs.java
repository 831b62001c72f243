package dev.perflab.login;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The login feature's knobs (seeds 003 and 002).
 *
 * @param client           {@code per-request}: a new TCP + TLS connection for every call; {@code keep-alive}: the
 *                         case study's baseline, a connection kept 20 s after its last call, then closed;
 *                         {@code pooled}: a sized pool whose connections stay open while idle
 * @param warmup           {@code on}: an ApplicationRunner warms the login path and opens the pool before readiness
 * @param guard            {@code none}: a slow auth API holds a request thread until the timeout; {@code bulkhead}: at
 *                         most N concurrent calls, the excess rejected at once, and a circuit breaker
 * @param keepAliveRefresh {@code on}: a call to the auth API every few seconds, inside the keep-alive, so that an idle
 *                         app keeps its connection (the case study proposed one every 20 s)
 */
@ConfigurationProperties("perflab.login")
public record LoginKnobs(
        @DefaultValue("per-request") Client client,
        @DefaultValue("off") Warmup warmup,
        @DefaultValue("none") Guard guard,
        @DefaultValue("off") KeepAliveRefresh keepAliveRefresh) {

    public enum Client { PER_REQUEST, KEEP_ALIVE, POOLED }

    public enum Warmup { OFF, ON }

    public enum Guard { NONE, BULKHEAD }

    public enum KeepAliveRefresh { OFF, ON }
}
