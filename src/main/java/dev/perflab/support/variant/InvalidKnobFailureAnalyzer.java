package dev.perflab.support.variant;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/** Turns an {@link InvalidKnobException} into Spring Boot's "APPLICATION FAILED TO START" report. */
class InvalidKnobFailureAnalyzer extends AbstractFailureAnalyzer<InvalidKnobException> {

    @Override
    protected FailureAnalysis analyze(Throwable rootFailure, InvalidKnobException cause) {
        return new FailureAnalysis(cause.getMessage(),
                "Set " + cause.property() + " to one of: " + String.join(", ", cause.allowed())
                        + " (or remove it to get the baseline).", cause);
    }
}
