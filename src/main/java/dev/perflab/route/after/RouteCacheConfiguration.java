package dev.perflab.route.after;

import io.micrometer.core.instrument.MeterRegistry;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.connection.RedisConnectionFactory;

import dev.perflab.route.RouteCodec;
import dev.perflab.route.RouteKnobs;
import dev.perflab.route.RouteLoader;
import dev.perflab.route.RouteRepository;

/** Wires the Redis cache-aside variant ({@code perflab.route.cache=redis}) with the configured layout and codec. */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.route.cache", havingValue = "redis")
class RouteCacheConfiguration {

    @Bean
    RouteCacheMetrics routeCacheMetrics(MeterRegistry registry, RouteCodec codec) {
        return new RouteCacheMetrics(registry, codec.name());
    }

    @Bean
    RouteRedisConnections routeRedisConnections(RedisConnectionFactory app, RouteKnobs knobs) {
        return new RouteRedisConnections(app, knobs.redisPoolSize(), knobs.redisTimeout());
    }

    @Bean
    RouteCacheStore routeCacheStore(RouteRedisConnections connections, RouteCodec codec, RouteKnobs knobs,
            RouteCacheMetrics metrics) {
        return new RouteCacheStore(connections.factory(), codec, new RouteKeys(codec.name(), knobs.layout()),
                knobs.ttl(), metrics);
    }

    @Bean
    RedisGate routeRedisGate(RouteKnobs knobs, MeterRegistry registry) {
        return new RedisGate(knobs.redisRetryAfter(), knobs.warnInterval(), registry);
    }

    @Bean
    RouteLoader cachedRouteLoader(RouteRepository repository, RouteCacheStore store, RedisGate gate,
            RouteCacheMetrics metrics, RouteKnobs knobs) {
        return new CachedRouteLoader(repository, store, gate, metrics, knobs);
    }
}
