package dev.perflab.archfixture.good.alpha.mode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/** {@code mode=second}, in the knob's package. */
@ConditionalOnProperty(name = "perflab.alpha.mode", havingValue = "second")
public class SecondMode {
}
