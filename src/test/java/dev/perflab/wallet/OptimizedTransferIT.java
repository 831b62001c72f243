package dev.perflab.wallet;

import io.micrometer.core.instrument.FunctionCounter;
import io.micrometer.core.instrument.Timer;
import org.junit.jupiter.api.Test;

import org.springframework.test.context.ActiveProfiles;
import org.springframework.test.context.TestPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The contract on preset wallet-after: optimized transfer, Redis cache, unique index (perflab_test_*_after), and
 * the lean header parsers (perflab.parse.header=lean), so that both parser pairs answer over HTTP as well.
 */
@ActiveProfiles("wallet-after")
@TestPropertySource(properties = "perflab.parse.header=lean")
class OptimizedTransferIT extends TransferContract {

    @Override
    int statementsPerTransfer() {
        return 5;
    }

    @Test
    void theCacheCountsHitsAndMissesAndTheIndexIsUnique() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        FunctionCounter hits = meters.get("cache.gets").tag("cache", "wallet:member-by-phone").tag("result", "hit").functionCounter();
        FunctionCounter misses = meters.get("cache.gets").tag("cache", "wallet:member-by-phone").tag("result", "miss").functionCounter();
        double hitsBefore = hits.count();
        double missesBefore = misses.count();

        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));
        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));

        assertThat(misses.count() - missesBefore).isEqualTo(1);
        assertThat(hits.count() - hitsBefore).isEqualTo(1);
        assertThat(jdbc.queryForObject("SELECT MIN(non_unique) FROM information_schema.statistics WHERE table_schema = DATABASE()"
                + " AND table_name = 'wallet' AND column_name = 'member_id'", Integer.class)).isZero();
        assertThat(meters.get("perflab.wallet.member.index.unique").gauge().value()).isEqualTo(1);
    }

    @Test
    void ledgerCodesAreReadFromRedisOnceNotOnEveryTransfer() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));
        double redisGets = ledgerCodeRedisGets();

        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));
        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));

        assertThat(ledgerCodeRedisGets()).isEqualTo(redisGets);
        assertThat(fixtures.balance(alice.id())).isEqualByComparingTo("7.00");
    }

    /** wallet-after's cache runs on its own blocking Jedis connections ({@code perflab.wallet.redis-client}). */
    boolean cacheUsesTheSharedLettuceClient() {
        return false;
    }

    @Test
    void thePhoneLookupGoesThroughTheConfiguredRedisClient() {
        var alice = fixtures.account("10.00");
        var bob = fixtures.account("0.00");
        transfer(alice, key(), body(bob.phone(), "1.00", "1234")); // a miss: GET and SET
        FunctionCounter hits = meters.get("cache.gets").tag("cache", "wallet:member-by-phone").tag("result", "hit").functionCounter();
        double lettuceBefore = lettuceCommands();
        double hitsBefore = hits.count();

        transfer(alice, key(), body(bob.phone(), "1.00", "1234"));

        assertThat(hits.count()).isEqualTo(hitsBefore + 1);
        if (cacheUsesTheSharedLettuceClient()) {
            assertThat(lettuceCommands()).isGreaterThan(lettuceBefore);
        } else {
            assertThat(lettuceCommands()).isEqualTo(lettuceBefore);
        }
    }

    /**
     * Commands Lettuce's observations timed (Prometheus {@code lettuce_seconds_count}), 0 before the first one; the PIN
     * guard's scripts (EVALSHA, EVAL when not cached), which go through the shared Lettuce client on every transfer
     * whatever the cache uses, left out.
     */
    private double lettuceCommands() {
        return meters.find("lettuce").timers().stream().filter(t -> t.getId().getTags().stream()
                .noneMatch(tag -> tag.getValue().equalsIgnoreCase("EVALSHA") || tag.getValue().equalsIgnoreCase("EVAL")))
                .mapToDouble(Timer::count).sum();
    }

    private double ledgerCodeRedisGets() {
        return meters.get("cache.gets").tag("cache", "wallet:ledger-codes").functionCounters().stream()
                .mapToDouble(FunctionCounter::count).sum();
    }
}
