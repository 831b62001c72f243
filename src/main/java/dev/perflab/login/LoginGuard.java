package dev.perflab.login;

import java.text.Normalizer;
import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;

import dev.perflab.support.security.KeyedHash;
import dev.perflab.support.security.guard.GuardMetrics;
import dev.perflab.support.security.guard.GuessPolicy;
import dev.perflab.support.security.guard.TooManyFailuresException;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Limits password guessing per login id and per client address, in {@code login_guard} so that every instance
 * behind a load balancer counts the same. Only failures count: the benchmarks log in hundreds of times a second
 * from one address and are never refused. A login costs one indexed SELECT that finds nothing; a wrong password
 * three statements per key. The login id is folded (NFKC, trimmed, lower case) before it is keyed, so that
 * {@code User1} and {@code user1 } are guessed against the same count; keys are HMACs, so the table holds no id or
 * address. {@code perflab_guard_failures_total{guard="login-id"|"login-address"}} and
 * {@code perflab_guard_refusals_total}.
 */
@Component
public class LoginGuard {

    private final LoginGuardMapper mapper;
    private final KeyedHash keyed;
    private final Properties properties;
    private final GuardMetrics metrics;
    private final TransactionTemplate transaction;

    LoginGuard(LoginGuardMapper mapper, KeyedHash keyed, Properties properties, GuardMetrics metrics,
            PlatformTransactionManager transactions) {
        this.mapper = mapper;
        this.keyed = keyed;
        this.properties = properties;
        this.metrics = metrics;
        this.transaction = new TransactionTemplate(transactions);
    }

    /** Throws 429 {@code too-many-login-failures} when this login id or this address is blocked. */
    public void check(String loginId, String address) {
        long now = System.currentTimeMillis();
        String loginKey = loginKey(loginId);
        List<LoginGuardMapper.Blocked> blocked = mapper.blocked(loginKey, addressKey(address), now);
        blocked.stream().max(Comparator.comparingLong(LoginGuardMapper.Blocked::blockedUntilMs)).ifPresent(longest -> {
            metrics.refused(longest.guardKey().equals(loginKey) ? "login-id" : "login-address");
            throw new TooManyFailuresException("too-many-login-failures",
                    "Too many failed logins: try again after Retry-After.", longest.blockedUntilMs(), now);
        });
    }

    /** Counts one failed login against the login id and the address. */
    public void recordFailure(String loginId, String address) {
        long now = System.currentTimeMillis();
        count("login-id", loginKey(loginId), properties.perLogin(), now);
        count("login-address", addressKey(address), properties.perAddress(), now);
    }

    private void count(String guard, String key, GuessPolicy policy, long now) {
        metrics.failed(guard);
        // the row first, in a transaction of its own: the locking read below then takes a record lock, never a gap
        // lock, so that concurrent failures of one key queue on it instead of deadlocking
        transaction.executeWithoutResult(status -> mapper.insertIfMissing(key));
        transaction.executeWithoutResult(status ->
                mapper.saveFailures(key, policy.afterFailure(mapper.lockFailures(key), now)));
    }

    private String loginKey(String loginId) {
        return keyed.hex("login-id:" + Normalizer.normalize(loginId, Normalizer.Form.NFKC).strip().toLowerCase(Locale.ROOT));
    }

    private String addressKey(String address) {
        return keyed.hex("login-address:" + address);
    }

    /**
     * {@code perflab.security.login-guard}: per login id at most {@code max-failures-per-login} failed logins per
     * {@code window}, per client address {@code max-failures-per-address}; after the free ones, each failure pauses
     * that id's (address's) logins for {@code base-backoff}, doubling; the last one until the window ends.
     */
    @ConfigurationProperties("perflab.security.login-guard")
    public record Properties(@DefaultValue("5") int maxFailuresPerLogin, @DefaultValue("2") int freeFailuresPerLogin,
            @DefaultValue("100") int maxFailuresPerAddress, @DefaultValue("50") int freeFailuresPerAddress,
            @DefaultValue("15m") Duration window, @DefaultValue("1s") Duration baseBackoff) {

        public Properties {
            new GuessPolicy(maxFailuresPerLogin, freeFailuresPerLogin, window, baseBackoff); // fails at startup if invalid
            new GuessPolicy(maxFailuresPerAddress, freeFailuresPerAddress, window, baseBackoff);
        }

        GuessPolicy perLogin() {
            return new GuessPolicy(maxFailuresPerLogin, freeFailuresPerLogin, window, baseBackoff);
        }

        GuessPolicy perAddress() {
            return new GuessPolicy(maxFailuresPerAddress, freeFailuresPerAddress, window, baseBackoff);
        }
    }
}
