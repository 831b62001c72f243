package dev.perflab.sprout;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/** The sprout server's one bean: its lifecycle, which starts it only when {@code perflab.sprout.enabled=true}. */
@Configuration(proxyBeanMethods = false)
class SproutConfiguration {

    @Bean
    SproutLifecycle sproutLifecycle(SproutKnobs knobs, Environment environment, MeterRegistry registry) {
        int serverPort = environment.getProperty("server.port", Integer.class, 8080);
        return new SproutLifecycle(knobs, SproutLifecycle.port(knobs, serverPort), new SproutMeters(registry, knobs.reader()));
    }
}
