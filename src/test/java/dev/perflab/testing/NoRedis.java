package dev.perflab.testing;

import java.util.Map;

import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.core.annotation.Order;
import org.springframework.core.env.MapPropertySource;

/** Points the app's Redis at a port nobody listens on, after {@link TestServices}: Redis unreachable from the start. */
@Order(10)
public class NoRedis implements ApplicationContextInitializer<ConfigurableApplicationContext> {

    @Override
    public void initialize(ConfigurableApplicationContext context) {
        context.getEnvironment().getPropertySources().addFirst(new MapPropertySource("noRedis",
                Map.of("spring.data.redis.host", "127.0.0.1", "spring.data.redis.port", 1)));
    }
}
