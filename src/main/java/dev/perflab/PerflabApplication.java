package dev.perflab;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.autoconfigure.SpringBootApplication;
import org.springframework.boot.context.properties.ConfigurationPropertiesScan;

/** perflab: one monolith, one package per feature, each with a {@code before} and an {@code after} variant. */
@SpringBootApplication
@ConfigurationPropertiesScan
public class PerflabApplication {

    public static void main(String[] args) {
        SpringApplication.run(PerflabApplication.class, args);
    }
}
