package dev.perflab.wallet;

import java.time.Duration;
import java.util.List;

import javax.sql.DataSource;

import com.zaxxer.hikari.HikariDataSource;

import dev.perflab.support.security.guard.Guess;
import dev.perflab.support.security.guard.GuessCounter;
import dev.perflab.support.security.guard.GuessPolicy;
import dev.perflab.support.security.guard.Reservation;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * Limits online PIN guessing per member, counted in Redis ({@link GuessCounter}, key {@code pin:<database>:<member id>}), so
 * that every instance behind a load balancer sees the same count and a fresh token changes nothing. {@link Transfers}
 * reserves a try ({@link #reserve}) before the transfer takes a pool connection (one Redis script, no SQL statement)
 * and refuses a blocked member, or one whose window's tries are all in use, with 429 whatever the PIN; a wrong PIN
 * keeps its try counted and pauses the next ones ({@link #settle}, after the transaction has rolled back, changing no
 * table); any other outcome hands the try back. So PINs sent at once are checked at most
 * {@code max-failures} per window. {@code perflab_guard_failures_total{guard="pin"}} and
 * {@code perflab_guard_refusals_total{guard="pin"}}.
 */
@Component
public class PinGuard {

    static final String GUARD = "pin";

    private final GuessCounter counter;
    private final GuessPolicy policy;
    private final String prefix;

    PinGuard(GuessCounter counter, Properties properties, DataSource dataSource) {
        this.counter = counter;
        this.policy = properties.policy();
        this.prefix = "pin:" + databaseOf(dataSource) + ":";
    }

    /**
     * A member id means something only in its database, and the lab runs several databases against one Redis (the
     * A/B sides, the tests' before and after): the key carries the database's name.
     */
    static String databaseOf(DataSource dataSource) {
        String url = dataSource instanceof HikariDataSource hikari ? hikari.getJdbcUrl() : null;
        if (url == null) {
            return "default";
        }
        int slash = url.lastIndexOf('/');
        int query = url.indexOf('?', slash);
        return query < 0 ? url.substring(slash + 1) : url.substring(slash + 1, query);
    }

    /**
     * Counts one PIN try of this member before the PIN is checked; throws 429 {@code too-many-pin-failures} while
     * this member's transfers are paused or its window's tries are used up (the PIN does not matter then).
     */
    public Reservation reserve(long memberId) {
        return counter.reserveOrRefuse(List.of(new Guess(GUARD, key(memberId), policy)), "too-many-pin-failures",
                "Too many wrong PINs: transfers are paused; see Retry-After.");
    }

    /** Settles the reserved try: kept when the PIN was wrong, else handed back. */
    public void settle(Reservation reservation, boolean wrongPin) {
        counter.settle(reservation, wrongPin);
    }

    private String key(long memberId) {
        return prefix + memberId;
    }

    /**
     * {@code perflab.wallet.pin-guard}: at most {@code max-failures} wrong PINs per member per {@code window}; after
     * {@code free-failures} each one pauses transfers for {@code base-backoff}, doubling; the last one until the
     * window ends.
     */
    @ConfigurationProperties("perflab.wallet.pin-guard")
    public record Properties(@DefaultValue("5") int maxFailures, @DefaultValue("2") int freeFailures,
            @DefaultValue("1h") Duration window, @DefaultValue("1s") Duration baseBackoff) {

        public Properties {
            policy(maxFailures, freeFailures, window, baseBackoff); // an invalid setting fails at startup
        }

        GuessPolicy policy() {
            return policy(maxFailures, freeFailures, window, baseBackoff);
        }

        private static GuessPolicy policy(int max, int free, Duration window, Duration backoff) {
            return new GuessPolicy(max, free, window, backoff);
        }
    }
}
