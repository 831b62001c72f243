package dev.perflab.login.client;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.perflab.login.AuthApiHttpClients;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Slow: every call opens a new TCP connection and does a full TLS handshake, then closes it (no
 * keep-alive): perflab's harsher baseline; the case study's own kept a connection 20 s
 * ({@link KeepAliveClientConfiguration}). Over a 10 ms link that is two extra round trips of TCP +
 * TLS per login, plus the handshake's CPU. Shows as {@code perflab_login_http_connections_opened_total}
 * rising one for one with {@code perflab_login_http_requests_total}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.login.client", havingValue = "per-request", matchIfMissing = true)
public class PerRequestClientConfiguration {

    /** Never reused; no pool to speak of: the limit is only there so that a burst cannot exhaust file descriptors. */
    private record NoReuse(AuthApiHttpClients.Reuse reuse, int maxTotal, int maxPerRoute) implements AuthApiHttpClients.Connections {
    }

    @Bean(destroyMethod = "close")
    CloseableHttpClient authApiHttpClient(AuthApiHttpClients clients) {
        return build(clients);
    }

    /** The per-request client, also for the interleaved mode's before arm ({@code login.LoginArms}). */
    public static CloseableHttpClient build(AuthApiHttpClients clients) {
        return clients.build("per-request", new NoReuse(AuthApiHttpClients.Reuse.NONE, 500, 500));
    }
}
