package dev.perflab.support.security.guard;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

class GuessPolicyTest {

    private final GuessPolicy policy = new GuessPolicy(5, 2, Duration.ofHours(1), Duration.ofSeconds(1));

    @Test
    void freeFailuresBlockNothingThenTheBackoffDoublesAndTheLastBlocksUntilTheWindowEnds() {
        long t = 1_000_000;
        Failures f = policy.afterFailure(Failures.NONE, t);
        assertThat(f).isEqualTo(new Failures(1, t, 0));
        f = policy.afterFailure(f, t + 10);
        assertThat(f.blockedAt(t + 10)).isFalse();
        f = policy.afterFailure(f, t + 20);
        assertThat(f.blockedUntilMs()).isEqualTo(t + 20 + 1000);
        f = policy.afterFailure(f, t + 2000);
        assertThat(f.blockedUntilMs()).isEqualTo(t + 2000 + 2000);
        f = policy.afterFailure(f, t + 5000);
        assertThat(f.count()).isEqualTo(5);
        assertThat(f.blockedUntilMs()).isEqualTo(t + 3_600_000);
        assertThat(f.blockedAt(t + 3_599_999)).isTrue();
        assertThat(f.blockedAt(t + 3_600_000)).isFalse();
    }

    @Test
    void aFailureAfterTheWindowStartsANewCount() {
        Failures old = new Failures(5, 0, 3_600_000);

        Failures next = policy.afterFailure(old, 3_600_001);

        assertThat(next).isEqualTo(new Failures(1, 3_600_001, 0));
    }

    @Test
    void aBackoffNeverOutlastsTheWindowAndNothingOverflows() {
        GuessPolicy many = new GuessPolicy(1000, 1, Duration.ofMinutes(15), Duration.ofSeconds(1));
        Failures f = Failures.NONE;
        for (int i = 0; i < 100; i++) {
            f = many.afterFailure(f, 10);
        }
        assertThat(f.blockedUntilMs()).isEqualTo(10 + Duration.ofMinutes(15).toMillis());
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
