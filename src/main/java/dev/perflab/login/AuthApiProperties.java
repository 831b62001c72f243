package dev.perflab.login;

import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * How perflab reaches the external auth API (the WireMock stub behind Toxiproxy).
 *
 * @param baseUrl                  the API's base URL; by default through Toxiproxy's {@code auth-api-https} proxy
 * @param sslBundle                the Spring Boot SSL bundle that trusts the stub's certificate
 * @param connectTimeout           TCP connect timeout
 * @param responseTimeout          how long to wait for the response (socket timeout)
 * @param connectionRequestTimeout how long a caller waits for a pooled connection before failing fast
 * @param pool                     pool sizing and hygiene, used by {@code perflab.login.client=pooled}
 * @param keepAlive                the case study's client ({@code perflab.login.client=keep-alive}) and its refresh
 * @param bulkhead                 concurrency limit and circuit breaker, used by {@code perflab.login.guard=bulkhead}
 * @param warmup                   what {@code perflab.login.warmup=on} does before readiness
 */
@ConfigurationProperties("perflab.login.auth-api")
public record AuthApiProperties(
        @DefaultValue("https://127.0.0.1:18443") String baseUrl,
        @DefaultValue("auth-api") String sslBundle,
        @DefaultValue("1s") Duration connectTimeout,
        @DefaultValue("2s") Duration responseTimeout,
        @DefaultValue("100ms") Duration connectionRequestTimeout,
        @DefaultValue Pool pool,
        @DefaultValue KeepAlive keepAlive,
        @DefaultValue Bulkhead bulkhead,
        @DefaultValue Warmup warmup) {

    /**
     * Sizing rule (Little's law): connections in use = arrival rate × time each call holds a connection. At
     * 200 logins/s against a 50 ms API behind 2 × 10 ms of network (≈ 75 ms with TLS reads), 200 × 0.075 = 15
     * connections; {@code max-per-route} 20 leaves headroom. More connections than that only add idle sockets.
     *
     * @param maxTotal                connections across all routes
     * @param maxPerRoute             connections to the auth API
     * @param keepAlive               how long an idle connection is kept for the next call (HttpClient's default, 3 min)
     * @param timeToLive              a connection is retired after this, so DNS or server changes are picked up
     * @param validateAfterInactivity a connection idle this long is checked before reuse (stale-connection check)
     * @param evictIdleAfter          a background thread closes connections idle this long
     */
    public record Pool(
            @DefaultValue("20") int maxTotal,
            @DefaultValue("20") int maxPerRoute,
            @DefaultValue("3m") Duration keepAlive,
            @DefaultValue("5m") Duration timeToLive,
            @DefaultValue("2s") Duration validateAfterInactivity,
            @DefaultValue("30s") Duration evictIdleAfter) implements AuthApiHttpClients.Connections {

        @Override
        public AuthApiHttpClients.Reuse reuse() {
            return new AuthApiHttpClients.Reuse(keepAlive, evictIdleAfter);
        }
    }

    /**
     * The case study's client: RestTemplate over HttpClient with a keep-alive strategy that honours the server's
     * {@code Keep-Alive: timeout} and else keeps a connection 20 s after its last call; HttpClient's default pool size.
     *
     * @param duration     an idle connection is closed this long after its last call; a call before then reuses it
     * @param maxTotal     connections across all routes (HttpClient's default)
     * @param maxPerRoute  connections to the auth API (HttpClient's default)
     * @param refreshEvery with {@code perflab.login.keep-alive-refresh=on}, the interval of the call that keeps a
     *                     connection alive; below {@code duration}, since a call at the very end of the keep-alive races it
     */
    public record KeepAlive(
            @DefaultValue("20s") Duration duration,
            @DefaultValue("25") int maxTotal,
            @DefaultValue("5") int maxPerRoute,
            @DefaultValue("15s") Duration refreshEvery) implements AuthApiHttpClients.Connections {

        /** Closed once expired, as the case study saw with netstat: the socket goes about 20 s after the last call. */
        @Override
        public AuthApiHttpClients.Reuse reuse() {
            return new AuthApiHttpClients.Reuse(duration, duration);
        }
    }

    /**
     * @param maxConcurrentCalls         calls in flight at once; the excess is rejected without waiting
     * @param failureRateThreshold       percent of failed calls (errors and timeouts) that opens the circuit
     * @param slidingWindowSize          how many recent calls the failure rate is taken over
     * @param minimumNumberOfCalls       calls needed before the rate counts
     * @param waitDurationInOpenState    how long the circuit stays open before letting trial calls through
     * @param permittedCallsInHalfOpenState trial calls that decide whether the circuit closes again
     */
    public record Bulkhead(
            @DefaultValue("10") int maxConcurrentCalls,
            @DefaultValue("50") float failureRateThreshold,
            @DefaultValue("20") int slidingWindowSize,
            @DefaultValue("10") int minimumNumberOfCalls,
            @DefaultValue("5s") Duration waitDurationInOpenState,
            @DefaultValue("3") int permittedCallsInHalfOpenState) {
    }

    /**
     * @param connections how many pooled connections to open before readiness (concurrent pings)
     * @param logins      login round trips through the app's own HTTP port with the warm-up account
     * @param timeout     the whole warm-up gives up after this, so a down dependency cannot block startup
     * @param loginId     the stub's warm-up account (not a real member)
     * @param password    its password, this install's (the config-tree file perflab.login.auth-api.warmup.password);
     *                    none, no login round trips (wrong passwords would count against the login guard)
     */
    public record Warmup(
            @DefaultValue("10") int connections,
            @DefaultValue("200") int logins,
            @DefaultValue("20s") Duration timeout,
            @DefaultValue("perflab-warmup") String loginId,
            @DefaultValue("") String password) {

        /** The login body of the warm-up account, or null without a password. */
        public String loginBody() {
            if (password.isBlank()) {
                return null;
            }
            return "{\"loginId\":\"" + json(loginId) + "\",\"password\":\"" + json(password) + "\"}";
        }

        private static String json(String value) {
            return value.replace("\\", "\\\\").replace("\"", "\\\"");
        }

        @Override
        public String toString() {
            return "Warmup[connections=" + connections + ", logins=" + logins + ", timeout=" + timeout + ", loginId="
                    + loginId + ", password=******]";
        }
    }
}
