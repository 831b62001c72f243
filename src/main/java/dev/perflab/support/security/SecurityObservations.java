package dev.perflab.support.security;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.security.config.observation.SecurityObservationSettings;

/**
 * Spring Security observes every request by default when an {@code ObservationRegistry} exists (it does, with
 * the actuator): each of its ~15 filters is wrapped in an observation with start and stop events, plus one
 * observation around authentication and one around authorization. In the profile of a transfer that was
 * about 8% of a request's CPU (docs/wallet.md, "Where the CPU goes"), for timers nothing reads (no dashboard or
 * experiment uses {@code spring_security_*}). Off by default; {@code perflab.security.observations=true} turns
 * them back on. {@code http_server_requests} and every other metric stay.
 */
@Configuration(proxyBeanMethods = false)
class SecurityObservations {

    @Bean
    SecurityObservationSettings securityObservationSettings(@Value("${perflab.security.observations:false}") boolean observe) {
        return observe ? SecurityObservationSettings.withDefaults().build() : SecurityObservationSettings.noObservations();
    }
}
