package dev.perflab.support.server;

import java.util.Locale;
import java.util.Map;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.MapPropertySource;

/** Maps the knob {@code perflab.server.threads} onto Spring Boot's {@code spring.threads.virtual.enabled}. */
class ThreadModelEnvironmentPostProcessor implements EnvironmentPostProcessor {

    @Override
    public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
        String threads = environment.getProperty("perflab.server.threads", "platform").trim().toLowerCase(Locale.ROOT);
        if (threads.equals("platform") || threads.equals("virtual")) {
            environment.getPropertySources().addFirst(new MapPropertySource("perflabThreadModel",
                    Map.of("spring.threads.virtual.enabled", threads.equals("virtual"))));
        }
    }
}
