package dev.perflab.support.variant;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.binder.MeterBinder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.boot.actuate.info.InfoContributor;
import org.springframework.boot.context.event.ApplicationStartedEvent;
import org.springframework.boot.micrometer.metrics.autoconfigure.MeterRegistryCustomizer;
import org.springframework.context.ApplicationListener;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.Environment;

/**
 * Makes the active variant visible: one startup log line with every knob, the gauge
 * {@code perflab_variant_info{feature,knob,value} 1}, the common tag {@code variant} on every meter, and
 * {@code GET /actuator/info}'s {@code perflab} section ({@code {"variant": ..., "knobs": {"route.cache": "redis", ...}}}),
 * which the k6 scripts read as JSON to check that the app runs the knobs they need.
 */
@Configuration(proxyBeanMethods = false)
class VariantConfiguration {

    private static final Logger log = LoggerFactory.getLogger(VariantConfiguration.class);

    @Bean
    static KnobValidator perflabKnobValidator() {
        return new KnobValidator();
    }

    @Bean
    VariantName variantName(Environment environment) {
        return VariantName.from(environment);
    }

    @Bean
    MeterRegistryCustomizer<MeterRegistry> variantCommonTag(VariantName variant) {
        return registry -> registry.config().commonTags("variant", variant.value());
    }

    @Bean
    MeterBinder variantInfo(ActiveKnobs knobs) {
        return registry -> knobs.all().forEach(knob -> Gauge.builder("perflab.variant.info", () -> 1)
                .description("1 for the value each knob runs with")
                .tags("feature", knob.feature(), "knob", knob.name(), "value", knob.value())
                .register(registry));
    }

    @Bean
    InfoContributor variantInfoContributor(ActiveKnobs knobs, VariantName variant) {
        return builder -> {
            Map<String, String> values = new TreeMap<>();
            knobs.all().forEach(knob -> values.put(knob.feature() + "." + knob.name(), knob.value()));
            builder.withDetail("perflab", Map.of("variant", variant.value(), "knobs", values));
        };
    }

    @Bean
    ApplicationListener<ApplicationStartedEvent> logKnobs(ActiveKnobs knobs, VariantName variant) {
        return event -> log.info("perflab variant '{}': {}", variant.value(), Knobs.describe(knobs.all()));
    }

    /** The preset that names this run: {@code perflab.variant}, else the active profiles joined by '+'. */
    public record VariantName(String value) {

        static VariantName from(Environment environment) {
            String explicit = environment.getProperty("perflab.variant");
            if (explicit != null && !explicit.isBlank()) {
                return new VariantName(explicit.trim());
            }
            List<String> profiles = Arrays.asList(environment.getActiveProfiles());
            return new VariantName(profiles.isEmpty() ? "default" : String.join("+", profiles));
        }
    }
}
