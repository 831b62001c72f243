package dev.perflab.support.security.guard;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuessPolicyTest {

    private final GuessPolicy policy = new GuessPolicy(5, 2, Duration.ofHours(1), Duration.ofSeconds(1));

    @Test
    void freeFailuresBlockNothingThenTheBackoffDoublesAndTheLastBlocksUntilTheWindowEnds() {
        long now = 1_000_000;
        long end = now + 3_000_000;
        assertThat(policy.blockedUntil(1, now, end)).isEqualTo(now);
        assertThat(policy.blockedUntil(2, now, end)).isEqualTo(now);
        assertThat(policy.blockedUntil(3, now, end)).isEqualTo(now + 1000);
        assertThat(policy.blockedUntil(4, now, end)).isEqualTo(now + 2000);
        assertThat(policy.blockedUntil(5, now, end)).isEqualTo(end);
        assertThat(policy.blockedUntil(50, now, end)).isEqualTo(end);
    }

    @Test
    void aBackoffNeverOutlastsTheWindowAndNothingOverflows() {
        GuessPolicy many = new GuessPolicy(1000, 1, Duration.ofMinutes(15), Duration.ofSeconds(1));

        assertThat(many.blockedUntil(999, 10, 10 + 60_000)).isEqualTo(10 + 60_000);
        assertThat(many.blockedUntil(40, 10, 10 + 60_000)).isEqualTo(10 + 60_000);
    }

    @Test
    void anInconsistentPolicyIsRefused() {
        assertThatThrownBy(() -> new GuessPolicy(2, 2, Duration.ofHours(1), Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
        assertThatThrownBy(() -> new GuessPolicy(5, 2, Duration.ZERO, Duration.ZERO))
                .isInstanceOf(IllegalArgumentException.class);
    }

    @Test
    void retryAfterIsWholeSecondsRoundedUp() {
        assertThat(new TooManyFailuresException("c", "d", 10_001, 9_000).headers().getFirst("Retry-After")).isEqualTo("2");
        assertThat(new TooManyFailuresException("c", "d", 9_000, 9_000).retryAfterSeconds()).isEqualTo(1);
    }
}
