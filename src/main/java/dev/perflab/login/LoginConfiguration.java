package dev.perflab.login;

import io.micrometer.core.instrument.MeterRegistry;
import org.apache.hc.client5.http.impl.classic.CloseableHttpClient;

import dev.perflab.support.interleave.InterleaveProperties;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Primary;

/** Wires the auth API from the chosen client ({@code perflab.login.client}) and guard ({@code perflab.login.guard}). */
@Configuration(proxyBeanMethods = false)
class LoginConfiguration {

    @Bean
    AuthApiHttpClients authApiHttpClients(AuthApiProperties properties, SslBundles sslBundles, MeterRegistry registry) {
        return new AuthApiHttpClients(properties, sslBundles, registry);
    }

    /**
     * The login's auth API, behind a guard of its own; in the interleaved mode, through the client of each login's arm
     * ({@link LoginArms}).
     */
    @Bean
    @Primary
    AuthApi authApi(CloseableHttpClient authApiHttpClient, AuthApiProperties properties, AuthApiGuard.Factory guards,
            InterleaveProperties arms, LoginKnobs knobs, ObjectProvider<LoginArms.OtherSideClient> otherSide) {
        AuthApiGuard guard = guards.create("auth-api");
        AuthApi own = new RestClientAuthApi(authApiHttpClient, properties, guard);
        LoginArms.OtherSideClient other = otherSide.getIfAvailable();
        return other == null ? own : LoginArms.route(arms, LoginArms.sideOf(knobs), own, other, properties, guard);
    }

    /** The dependency lab's calls to the same stub, behind a guard of their own: they never open the login's breaker. */
    @Bean
    AuthApi labDependencyApi(CloseableHttpClient authApiHttpClient, AuthApiProperties properties,
            AuthApiGuard.Factory guards) {
        return new RestClientAuthApi(authApiHttpClient, properties, guards.create("lab-dependency"));
    }
}
