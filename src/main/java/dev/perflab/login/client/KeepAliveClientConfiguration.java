package dev.perflab.login.client;

import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.perflab.login.AuthApiHttpClients;
import dev.perflab.login.AuthApiProperties;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Slow after a deploy or an idle period: the case study's own client, HttpClient keeping a connection 20 s after
 * its last call (the server's {@code Keep-Alive: timeout} if it sends one) and then closing it, with HttpClient's
 * default pool size. Calls less than 20 s apart reuse the connection; the first call after a longer gap pays the TCP
 * and TLS handshakes again. Shows as {@code perflab_login_http_connections_opened_total} rising by one on the first
 * login after an idle period ({@code ./perflab ab login-keepalive}), and as {@code httpcomponents_httpclient_pool_*}
 * dropping to zero about 20 s after the last call.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.login.client", havingValue = "keep-alive")
class KeepAliveClientConfiguration {

    @Bean(destroyMethod = "close")
    CloseableHttpClient authApiHttpClient(AuthApiHttpClients clients, AuthApiProperties properties) {
        return clients.build("keep-alive", properties.keepAlive());
    }
}
