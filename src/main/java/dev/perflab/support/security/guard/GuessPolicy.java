package dev.perflab.support.security.guard;

import java.time.Duration;

/**
 * How many wrong guesses a secret allows in a window (which starts at the first wrong guess): the first
 * {@code freeFailures} cost nothing, each one after them blocks further tries for a growing backoff
 * ({@code baseBackoff}, doubling), and the {@code maxFailures}-th blocks them until the window ends, whatever is tried
 * then. So at most {@code maxFailures} wrong guesses are ever checked per window.
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

    /**
     * Until when tries are blocked after the {@code count}-th wrong guess of a window at {@code nowMs}, the window
     * ending at {@code windowEndMs}; {@code nowMs} or earlier when they are not.
     */
    public long blockedUntil(int count, long nowMs, long windowEndMs) {
        if (count >= maxFailures) {
            return windowEndMs;
        }
        if (count <= freeFailures) {
            return nowMs;
        }
        int doublings = Math.min(count - freeFailures - 1, 30);
        return Math.min(windowEndMs, nowMs + (baseBackoff.toMillis() << doublings));
    }
}
