package dev.perflab.wallet;

import java.math.BigDecimal;
import java.time.Duration;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;

/**
 * The wallet feature's knobs (the enums) and settings. Presets {@code wallet-before} and {@code wallet-after}
 * live in {@code features/wallet.yml}.
 *
 * @param transfer      naive: the seed's 12-statement flow; optimized: at most 5 statements on a cache hit
 * @param cache         off: phone lookups and ledger codes read MariaDB; redis: Spring's cache on Redis
 * @param index         the index on {@code wallet.member_id} this database was migrated with (one database per side)
 * @param redisClient   with {@code cache=redis}: lettuce, the app's shared Lettuce connection; jedis, a pool of
 *                      blocking Jedis connections used on the request thread
 * @param redisPoolSize with {@code redis-client=jedis}: the pool's connections, as many as Tomcat's request threads
 *                      (200), so that no request waits for a connection another request holds (a lookup that waits
 *                      longer than the Redis timeout reads MariaDB)
 * @param maxAmount     the largest amount one transfer may move
 * @param maxAttempts   how many times a transfer runs when it loses a deadlock or times out waiting for a lock
 * @param memberTtl     how long a phone → member entry lives in Redis (the seed used 12 h)
 * @param ledgerCodeTtl how long ledger codes live in Redis (the seed used 24 h)
 * @param warmupPin     the PIN of the data set's wallets, for the warm-up's dry-run transfers: the install's
 *                      {@code member-pin} (application.yml); none, no dry-run transfers
 */
@ConfigurationProperties("perflab.wallet")
public record WalletKnobs(
        @DefaultValue("naive") Transfer transfer,
        @DefaultValue("off") Cache cache,
        @DefaultValue("non-unique") Index index,
        @DefaultValue("lettuce") RedisClient redisClient,
        @DefaultValue("200") int redisPoolSize,
        @DefaultValue("2000000.00") BigDecimal maxAmount,
        @DefaultValue("3") int maxAttempts,
        @DefaultValue("12h") Duration memberTtl,
        @DefaultValue("24h") Duration ledgerCodeTtl,
        @DefaultValue("") String warmupPin) {

    public enum Transfer { NAIVE, OPTIMIZED }

    public enum Cache { OFF, REDIS }

    public enum Index { NON_UNIQUE, UNIQUE }

    public enum RedisClient { LETTUCE, JEDIS }
}
