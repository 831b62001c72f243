package dev.perflab.support.variant;

import org.junit.jupiter.api.Test;

import dev.perflab.PerflabApplication;

import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.diagnostics.FailureAnalysis;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

/** A misspelt knob stops startup before any bean (or database connection) is made. */
class BadKnobTest {

    @Test
    void anUnknownKnobValueStopsStartupNamingThePropertyAndItsAllowedValues() {
        Throwable failure = catchThrowable(() -> new SpringApplicationBuilder(PerflabApplication.class)
                .run("--perflab.server.threads=fast", "--server.port=0", "--spring.main.banner-mode=off"));

        InvalidKnobException invalid = findCause(failure);
        assertThat(invalid.getMessage())
                .isEqualTo("Invalid value 'fast' for perflab.server.threads; allowed values: platform, virtual");

        FailureAnalysis analysis = new InvalidKnobFailureAnalyzer().analyze(failure);
        assertThat(analysis.getAction()).contains("perflab.server.threads").contains("platform, virtual");
    }

    private static InvalidKnobException findCause(Throwable failure) {
        for (Throwable t = failure; t != null; t = t.getCause()) {
            if (t instanceof InvalidKnobException invalid) {
                return invalid;
            }
        }
        throw new AssertionError("startup did not fail with InvalidKnobException", failure);
    }
}
