package dev.perflab.support.security.guard;

/**
 * The wrong guesses of one secret (a member's PIN, a login id's password, one client address's logins) in the
 * current window, and the time until which further tries are refused. Times are epoch milliseconds; 0 is "never".
 */
public record Failures(int count, long windowStartMs, long blockedUntilMs) {

    public static final Failures NONE = new Failures(0, 0, 0);

    public boolean blockedAt(long nowMs) {
        return blockedUntilMs > nowMs;
    }
}
