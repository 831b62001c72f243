package dev.perflab.support.interleave;

import dev.perflab.support.problem.ProblemResponses;
import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.security.autoconfigure.web.servlet.SecurityFilterProperties;
import org.springframework.boot.web.servlet.FilterRegistrationBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.Ordered;

/**
 * Registers {@link ArmFilter} ahead of Spring Security and {@link PlantedCpuFilter} after it, only with
 * {@code perflab.lab.interleave.enabled=true}.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnBooleanProperty("perflab.lab.interleave.enabled")
class InterleaveConfiguration {

    @Bean
    FilterRegistrationBean<ArmFilter> armFilter(InterleaveProperties properties, MeterRegistry registry, ProblemResponses problems) {
        FilterRegistrationBean<ArmFilter> registration = new FilterRegistrationBean<>(new ArmFilter(properties, registry, problems));
        registration.setOrder(Ordered.HIGHEST_PRECEDENCE + 20);
        registration.addUrlPatterns("/api/*");
        return registration;
    }

    /** After Spring Security's filter chain ({@code spring.security.filter.order}, -100): see {@link PlantedCpuFilter}. */
    @Bean
    FilterRegistrationBean<PlantedCpuFilter> plantedCpuFilter(InterleaveProperties properties, MeterRegistry registry) {
        FilterRegistrationBean<PlantedCpuFilter> registration = new FilterRegistrationBean<>(
                new PlantedCpuFilter(properties, registry));
        registration.setOrder(SecurityFilterProperties.DEFAULT_FILTER_ORDER + 1);
        registration.addUrlPatterns("/api/*");
        return registration;
    }
}
