package dev.perflab.login;

import java.time.Duration;
import java.util.List;

import dev.perflab.support.security.KeyedHash;
import dev.perflab.support.security.guard.Guess;
import dev.perflab.support.security.guard.GuessCounter;
import dev.perflab.support.security.guard.GuessPolicy;
import dev.perflab.support.security.guard.Reservation;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;

/**
 * Limits password guessing per login id and per client address, counted in Redis ({@link GuessCounter}) so that
 * every instance behind a load balancer counts the same. A try is reserved against both before the password is
 * checked ({@link #reserve}, one Redis script), kept when the password is wrong and handed back otherwise ({@link #settle}): so only failures (and tries in flight) count, the benchmarks log in hundreds of times
 * a second from one address and are never refused, and passwords sent at once are checked at most
 * {@code max-failures-per-login} per window. No SQL. The login id is folded ({@link LoginKeys}: NFKC, no
 * default-ignorable code points, trimmed, lower case) before it is keyed, so that {@code User1}, {@code user1 } and
 * {@code user\u200B1} are guessed against the same count; an IPv6 address counts per /64; keys are HMACs, so Redis
 * holds no id or address.
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

    /**
     * Counts one try against this login id and this address before the password is checked; throws 429
     * {@code too-many-login-failures} when either is paused or has its window's tries in use.
     */
    public Reservation reserve(String loginId, String address) {
        return counter.reserveOrRefuse(List.of(new Guess("login-id", loginKey(loginId), properties.perLogin()),
                new Guess("login-address", addressKey(address), properties.perAddress())),
                "too-many-login-failures", "Too many failed logins: try again after Retry-After.");
    }

    /** Settles the reserved login: kept when the password was wrong, else handed back. */
    public void settle(Reservation reservation, boolean wrongPassword) {
        counter.settle(reservation, wrongPassword);
    }

    private String loginKey(String loginId) {
        return "login-id:" + keyed.hex("login-id:" + LoginKeys.loginId(loginId));
    }

    private String addressKey(String address) {
        return "login-address:" + keyed.hex("login-address:" + LoginKeys.address(address));
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
