package dev.perflab.wallet;

import java.time.Duration;

import dev.perflab.support.security.guard.Failures;
import dev.perflab.support.security.guard.GuardMetrics;
import dev.perflab.support.security.guard.GuessPolicy;
import dev.perflab.support.security.guard.TooManyFailuresException;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.bind.DefaultValue;
import org.springframework.stereotype.Component;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Limits online PIN guessing per member, in the member's wallet row, so that every instance behind a load balancer
 * sees the same count and a fresh token changes nothing: each wrong PIN is counted after the transfer's transaction
 * has rolled back (two statements, only on that path); {@link TransferPlan} refuses a blocked member's transfer
 * with 429 before it looks at the PIN, from the columns its lock already reads, so a transfer that succeeds sends
 * no extra statement. {@code perflab_guard_failures_total{guard="pin"}} and {@code perflab_guard_refusals_total}.
 */
@Component
public class PinGuard {

    static final String GUARD = "pin";

    private final PinGuardMapper mapper;
    private final GuessPolicy policy;
    private final GuardMetrics metrics;
    private final TransactionTemplate transaction;

    PinGuard(PinGuardMapper mapper, Properties properties, GuardMetrics metrics, PlatformTransactionManager transactions) {
        this.mapper = mapper;
        this.policy = properties.policy();
        this.metrics = metrics;
        this.transaction = new TransactionTemplate(transactions);
    }

    /** Counts one wrong PIN of this member. */
    public void recordFailure(long memberId) {
        metrics.failed(GUARD);
        transaction.executeWithoutResult(status -> {
            Failures before = mapper.lockFailures(memberId);
            if (before != null) {
                mapper.saveFailures(memberId, policy.afterFailure(before, System.currentTimeMillis()));
            }
        });
    }

    /** Counts a refused transfer. */
    public void refused() {
        metrics.refused(GUARD);
    }

    static TooManyFailuresException blocked(long blockedUntilMs, long nowMs) {
        return new TooManyFailuresException("too-many-pin-failures",
                "Too many wrong PINs: transfers are paused; see Retry-After.", blockedUntilMs, nowMs);
    }

    /**
     * {@code perflab.wallet.pin-guard}: at most {@code max-failures} wrong PINs per member per {@code window}; after
     * {@code free-failures} each one pauses transfers for {@code base-backoff}, doubling; the last one until the
     * window ends.
     */
    @ConfigurationProperties("perflab.wallet.pin-guard")
    public record Properties(@DefaultValue("5") int maxFailures, @DefaultValue("2") int freeFailures,
            @DefaultValue("1h") Duration window, @DefaultValue("1s") Duration baseBackoff) {

        GuessPolicy policy() {
            return new GuessPolicy(maxFailures, freeFailures, window, baseBackoff);
        }
    }
}
