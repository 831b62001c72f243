package dev.perflab.support.parse;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Seed 000's inlining finding, checked with the JDK's own flags: {@link HeaderParsingDriver} runs hot in a
 * child JVM with {@code -Xbatch -XX:+PrintInlining} ({@link InliningCheck#FLAGS}), and C2 refuses the naive
 * Bearer parse for its size while it inlines every lean method. The same check as {@code scripts/inlining-check.sh}.
 */
@Timeout(value = 3, unit = TimeUnit.MINUTES)
class HeaderParsingInliningTest {

    private static InliningCheck.Report report;

    @BeforeAll
    static void runTheDriver() throws Exception {
        report = InliningCheck.run(Duration.ofMinutes(2), List.of());
    }

    @Test
    void c2RefusesTheNaiveBearerParseAsTooBig() {
        InliningCheck.Decisions naive = report.decisions(InliningCheck.NAIVE_BEARER);
        assertThat(naive.bytes()).isGreaterThan(325);
        assertThat(naive.said()).as("C2's decisions about %s", InliningCheck.NAIVE_BEARER)
                .isNotEmpty().containsOnlyKeys("hot method too big");
    }

    @Test
    void c2InlinesEveryLeanMethod() {
        for (String method : InliningCheck.LEAN) {
            InliningCheck.Decisions lean = report.decisions(method);
            assertThat(lean.bytes()).as(method).isBetween(1, 325);
            assertThat(lean.said()).as("C2's decisions about %s", method).isNotEmpty().containsOnlyKeys("inline (hot)");
        }
        assertThat(report.ok()).as("the verdict table:%n%s", report.rows()).isTrue();
    }
}
