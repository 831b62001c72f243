package dev.perflab.login;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/** Wires the auth API from the chosen client ({@code perflab.login.client}) and guard ({@code perflab.login.guard}). */
@Configuration(proxyBeanMethods = false)
class LoginConfiguration {

    @Bean
    AuthApiHttpClients authApiHttpClients(AuthApiProperties properties, SslBundles sslBundles, MeterRegistry registry) {
        return new AuthApiHttpClients(properties, sslBundles, registry);
    }

    @Bean
    AuthApi authApi(CloseableHttpClient authApiHttpClient, AuthApiProperties properties, AuthApiGuard guard) {
        return new RestClientAuthApi(authApiHttpClient, properties, guard);
    }
}
