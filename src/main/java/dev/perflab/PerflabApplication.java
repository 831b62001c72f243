package dev.perflab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/**
 * perflab: one monolith, one package per feature, its variants placed by knob (docs/design.md). The scan adds
 * {@code db.migrations}, the Java migrations beside the SQL ones in {@code db/migrations}.
 */
@SpringBootApplication(scanBasePackages = {"dev.perflab", "db.migrations"})
@ConfigurationPropertiesScan
public class PerflabApplication {

    public static void main(String[] args) {
        SpringApplication.run(PerflabApplication.class, args);
    }
}
