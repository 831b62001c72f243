package dev.perflab.login;

import java.text.Normalizer;
import java.time.Duration;
import java.util.List;
import java.util.Locale;

import dev.perflab.support.security.KeyedHash;
import dev.perflab.support.security.guard.GuessCounter;
import dev.perflab.support.security.guard.GuessPolicy;
import dev.perflab.support.security.guard.TooManyFailuresException;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * Limits password guessing per login id and per client address, counted in Redis ({@link GuessCounter}) so that
 * every instance behind a load balancer counts the same. Only failures count: the benchmarks log in hundreds of times
 * a second from one address and are never refused. A login costs one Redis MGET; no SQL. The login id is
 * folded (NFKC, trimmed, lower case) before it is keyed, so that {@code User1} and {@code user1 } are guessed
 * against the same count; keys are HMACs, so Redis holds no id or address.
 * {@code perflab_guard_failures_total{guard="login-id"|"login-address"}} and {@code perflab_guard_refusals_total}.
 */
@Component
public class LoginGuard {

    private final GuessCounter counter;
    private final KeyedHash keyed;
    private final Properties properties;

    LoginGuard(GuessCounter counter, KeyedHash keyed, Properties properties) {
        this.counter = counter;
        this.keyed = keyed;
        this.properties = properties;
    }

    /** Throws 429 {@code too-many-login-failures} when this login id or this address is blocked. */
    public void check(String loginId, String address) {
        long now = System.currentTimeMillis();
        String loginKey = loginKey(loginId);
        counter.longestBlock(List.of(loginKey, addressKey(address)), now).ifPresent(longest -> {
            counter.refused(longest.key().equals(loginKey) ? "login-id" : "login-address");
            throw new TooManyFailuresException("too-many-login-failures",
                    "Too many failed logins: try again after Retry-After.", longest.untilMs(), now);
        });
    }

    /** Counts one failed login against the login id and the address. */
    public void recordFailure(String loginId, String address) {
        counter.recordFailure("login-id", loginKey(loginId), properties.perLogin());
        counter.recordFailure("login-address", addressKey(address), properties.perAddress());
    }

    private String loginKey(String loginId) {
        return "login-id:" + keyed.hex("login-id:"
                + Normalizer.normalize(loginId, Normalizer.Form.NFKC).strip().toLowerCase(Locale.ROOT));
    }

    private String addressKey(String address) {
        return "login-address:" + keyed.hex("login-address:" + address);
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
