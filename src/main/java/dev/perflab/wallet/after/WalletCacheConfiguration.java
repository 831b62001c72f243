package dev.perflab.wallet.after;

import java.util.List;
import java.util.Map;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tags;
import io.micrometer.core.instrument.binder.MeterBinder;
import io.micrometer.core.instrument.binder.cache.CacheMeterBinder;

import dev.perflab.wallet.LedgerCode;
import dev.perflab.wallet.MemberRef;
import dev.perflab.wallet.WalletKnobs;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.data.redis.cache.RedisCache;
import org.springframework.data.redis.cache.RedisCacheConfiguration;
import org.springframework.data.redis.cache.RedisCacheManager;
import org.springframework.data.redis.connection.RedisConnectionFactory;
import org.springframework.data.redis.serializer.JacksonJsonRedisSerializer;
import org.springframework.data.redis.serializer.RedisSerializationContext.SerializationPair;

/**
 * The wallet's two caches on Redis through Spring's cache abstraction, each with its own TTL
 * ({@code perflab.wallet.member-ttl}, {@code perflab.wallet.ledger-code-ttl}) and JSON values, over the connections
 * {@code perflab.wallet.redis-client} picks ({@link WalletRedisConnections}). The cache
 * manager is private to the wallet (not a {@code CacheManager} bean), so it does not replace the one Spring
 * Boot would configure for another feature. Hits and misses are exported as
 * {@code cache_gets_total{cache, result="hit"|"miss"}}, puts and evictions beside them.
 */
@Configuration(proxyBeanMethods = false)
@ConditionalOnProperty(name = "perflab.wallet.cache", havingValue = "redis")
class WalletCacheConfiguration {

    static final String MEMBERS = "wallet:member-by-phone";
    static final String LEDGER_CODES = "wallet:ledger-codes";

    @Bean
    WalletRedisConnections walletRedisConnections(RedisConnectionFactory app, WalletKnobs knobs) {
        return new WalletRedisConnections(app, knobs.redisClient(), knobs.redisPoolSize());
    }

    @Bean
    WalletCaches walletCaches(WalletRedisConnections redis, WalletKnobs knobs) {
        RedisCacheConfiguration defaults = RedisCacheConfiguration.defaultCacheConfig().disableCachingNullValues();
        RedisCacheManager manager = RedisCacheManager.builder(redis.factory())
                .enableStatistics()
                .disableCreateOnMissingCache()
                .withInitialCacheConfigurations(Map.of(
                        MEMBERS, defaults.entryTtl(knobs.memberTtl())
                                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(MemberRef.class))),
                        LEDGER_CODES, defaults.entryTtl(knobs.ledgerCodeTtl())
                                .serializeValuesWith(SerializationPair.fromSerializer(new JacksonJsonRedisSerializer<>(LedgerCode[].class)))))
                .build();
        manager.initializeCaches();
        return new WalletCaches((RedisCache) manager.getCache(MEMBERS), (RedisCache) manager.getCache(LEDGER_CODES));
    }

    @Bean
    MeterBinder walletCacheMetrics(WalletCaches caches) {
        return registry -> List.of(caches.members(), caches.ledgerCodes())
                .forEach(cache -> new RedisCacheMeters(cache).bindTo(registry));
    }

    /** The two caches the wallet uses. */
    record WalletCaches(RedisCache members, RedisCache ledgerCodes) {
    }

    /** Micrometer's standard cache meters, read from the statistics Spring Data Redis keeps per cache. */
    static final class RedisCacheMeters extends CacheMeterBinder<RedisCache> {

        RedisCacheMeters(RedisCache cache) {
            super(cache, cache.getName(), Tags.empty());
        }

        @Override
        protected Long size() {
            return null;
        }

        @Override
        protected long hitCount() {
            return getCache().getStatistics().getHits();
        }

        @Override
        protected Long missCount() {
            return getCache().getStatistics().getMisses();
        }

        @Override
        protected Long evictionCount() {
            return getCache().getStatistics().getDeletes();
        }

        @Override
        protected long putCount() {
            return getCache().getStatistics().getPuts();
        }

        @Override
        protected void bindImplementationSpecificMetrics(MeterRegistry registry) {
            // hits, misses, puts and evictions are all Redis gives per cache
        }
    }
}
