package dev.perflab.support.security.guard;

/**
 * One guessable secret a try checks: its counter's {@code key} (already keyed, never the secret's owner in clear),
 * the {@code guard} that names it in {@link GuardMetrics}, and its {@link GuessPolicy}.
 */
public record Guess(String guard, String key, GuessPolicy policy) {
}
