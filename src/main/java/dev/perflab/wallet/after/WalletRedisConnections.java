package dev.perflab.wallet.after;

import java.time.Duration;

import org.apache.commons.pool2.impl.GenericObjectPoolConfig;
import redis.clients.jedis.Jedis;

import dev.perflab.wallet.WalletKnobs;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.connection.jedis.JedisClientConfiguration;
import org.springframework.data.redis.connection.jedis.JedisConnectionFactory;
import org.springframework.data.redis.connection.lettuce.LettuceConnectionFactory;

/**
 * The connections behind the wallet's caches ({@code perflab.wallet.redis-client}).
 * <ul>
 * <li>{@code lettuce}: the app's shared Lettuce connection. Slow on a fast network: every command is handed from
 * the request thread to Lettuce's event loop and its reply handed back (a selector wake-up and a thread switch
 * each way), and Lettuce opens a Micrometer observation around it. JFR of {@code ./perflab ab wallet} on localhost
 * put the event loop at about 15 % of {@code wallet-after}'s CPU samples for one GET per transfer; the
 * experiment's {@code app CPU per transfer (ms)} shows it.</li>
 * <li>{@code jedis}: a pool of {@code redis-pool-size} blocking Jedis connections to the same server, database and
 * timeout. Fast because the request thread writes the command and reads the reply on its own socket: no hand-off,
 * no event loop. The pool has as many connections as the server has request threads, so that no request queues for
 * a connection another request holds while it waits for the CPU (with Lettuce nobody owns the connection). When all
 * are busy, a lookup waits up to the timeout and then counts as a miss ({@link OptionalRedis}).</li>
 * </ul>
 * Not a bean of type RedisConnectionFactory, so that Boot's factory stays the app's only one.
 */
final class WalletRedisConnections implements DisposableBean {

    private final RedisConnectionFactory factory;
    private final JedisConnectionFactory own;

    WalletRedisConnections(RedisConnectionFactory app, WalletKnobs.RedisClient client, int poolSize) {
        this.own = switch (client) {
            case LETTUCE -> null;
            case JEDIS -> jedisPool(app, poolSize);
        };
        this.factory = own != null ? own : app;
    }

    private static JedisConnectionFactory jedisPool(RedisConnectionFactory app, int poolSize) {
        if (!(app instanceof LettuceConnectionFactory lettuce)) {
            throw new IllegalStateException("perflab.wallet.redis-client=jedis reads the server from the app's Lettuce "
                    + "factory (spring.data.redis.client-type=lettuce)");
        }
        Duration timeout = lettuce.getClientConfiguration().getCommandTimeout();
        GenericObjectPoolConfig<Jedis> pool = new GenericObjectPoolConfig<>();
        pool.setMaxTotal(poolSize);
        pool.setMaxIdle(poolSize);
        pool.setMaxWait(timeout);
        JedisClientConfiguration client = JedisClientConfiguration.builder()
                .connectTimeout(timeout).readTimeout(timeout)
                .usePooling().poolConfig(pool).build();
        JedisConnectionFactory jedis = new JedisConnectionFactory(lettuce.getStandaloneConfiguration(), client);
        jedis.afterPropertiesSet();
        jedis.start();
        return jedis;
    }

    RedisConnectionFactory factory() {
        return factory;
    }

    @Override
    public void destroy() {
        if (own != null) {
            own.destroy();
        }
    }
}
