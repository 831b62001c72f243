package dev.perflab.support.security.guard;

import java.time.Duration;

/**
 * How many wrong guesses a secret allows in a window: the first {@code freeFailures} cost nothing, each one after
 * them blocks further tries for a growing backoff ({@code baseBackoff}, doubling), and the {@code maxFailures}-th
 * blocks them until the window ends, whatever is tried then. So at most {@code maxFailures} wrong guesses per window.
 */
public record GuessPolicy(int maxFailures, int freeFailures, Duration window, Duration baseBackoff) {

    public GuessPolicy {
        if (maxFailures < 1 || freeFailures < 0 || freeFailures >= maxFailures) {
            throw new IllegalArgumentException("a guess policy needs 0 <= free-failures < max-failures, max-failures >= 1");
        }
        if (window.isNegative() || window.isZero() || baseBackoff.isNegative()) {
            throw new IllegalArgumentException("a guess policy needs a positive window and a backoff >= 0");
        }
    }

    /** The state after one more wrong guess at {@code nowMs}. */
    public Failures afterFailure(Failures before, long nowMs) {
        boolean newWindow = before.count() == 0 || nowMs - before.windowStartMs() >= window.toMillis();
        int count = newWindow ? 1 : before.count() + 1;
        long windowStart = newWindow ? nowMs : before.windowStartMs();
        long windowEnd = windowStart + window.toMillis();
        long blockedUntil = 0;
        if (count >= maxFailures) {
            blockedUntil = windowEnd;
        } else if (count > freeFailures) {
            int doublings = Math.min(count - freeFailures - 1, 30);
            blockedUntil = Math.min(windowEnd, nowMs + (baseBackoff.toMillis() << doublings));
        }
        return new Failures(count, windowStart, newWindow ? blockedUntil : Math.max(blockedUntil, before.blockedUntilMs()));
    }
}
