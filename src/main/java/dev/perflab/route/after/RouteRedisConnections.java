package dev.perflab.route.after;

import java.time.Duration;

import io.lettuce.core.api.StatefulConnection;
import org.apache.commons.pool2.impl.GenericObjectPoolConfig;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceClientConfiguration;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettucePoolingClientConfiguration;

/**
 * The route cache's own pool of Redis connections, to the server (and with the client resources, hence the
 * Lettuce metrics) of the app's connection factory. Why: Spring Data Redis shares one native Lettuce connection
 * by default, and multi-megabyte MGET replies queued on it made every other command wait behind them (the
 * manifest GET of the next request and any other feature's command alike) until they hit the command timeout.
 * At most {@code redis-pool-size} big reads are in flight; the others wait for a connection, so the command timeout
 * ({@code redis-timeout}) measures Redis rather than our own queue. Not a bean of type RedisConnectionFactory, so
 * that Boot's own factory stays the app's only one.
 */
final class RouteRedisConnections implements DisposableBean {

    private final LettuceConnectionFactory factory;

    RouteRedisConnections(RedisConnectionFactory app, int poolSize, Duration timeout) {
        if (!(app instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("the route cache needs Lettuce (spring.data.redis.client-type=lettuce)");
        }
        GenericObjectPoolConfig<StatefulConnection<?, ?>> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(poolSize);
        pool.setMaxIdle(poolSize);
        pool.setMinIdle(1);
        pool.setMaxWait(timeout); // waiting for one of the poolSize connections is the bulkhead, outside the command timeout
        LettuceClientConfiguration shared = lettuce.getClientConfiguration();
        LettucePoolingClientConfiguration.LettucePoolingClientConfigurationBuilder client =
                LettucePoolingClientConfiguration.builder().poolConfig(pool).commandTimeout(timeout);
        shared.getClientResources().ifPresent(client::clientResources);
        shared.getClientOptions().ifPresent(client::clientOptions);
        this.factory = new LettuceConnectionFactory(lettuce.getStandaloneConfiguration(), client.build());
        this.factory.afterPropertiesSet();
        this.factory.start();
    }

    RedisConnectionFactory factory() {
        return factory;
    }

    @Override
    public void destroy() {
        factory.destroy();
    }
}
