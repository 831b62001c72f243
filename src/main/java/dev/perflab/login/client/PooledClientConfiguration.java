package dev.perflab.login.client;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.perflab.login.AuthApiHttpClients;
import dev.perflab.login.AuthApiProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Fast: a {@code PoolingHttpClientConnectionManager} keeps connections alive, so a call pays the TCP
 * and TLS handshakes only when the pool has to grow. Sized by Little's law ({@link AuthApiProperties.Pool}),
 * with a short connection-request timeout so that a full pool fails fast instead of queueing. Shows as
 * {@code perflab_login_http_connections_opened_total} staying at the pool size while
 * {@code perflab_login_http_requests_total} grows, and {@code httpcomponents_httpclient_pool_*}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.login.client", havingValue = "pooled")
public class PooledClientConfiguration {

    @Bean(destroyMethod = "close")
    CloseableHttpClient authApiHttpClient(AuthApiHttpClients clients, AuthApiProperties properties) {
        return build(clients, properties);
    }

    /** The pooled client, also for the interleaved mode's after arm ({@code login.LoginArms}). */
    public static CloseableHttpClient build(AuthApiHttpClients clients, AuthApiProperties properties) {
        return clients.build("pooled", properties.pool());
    }
}
