package dev.perflab.archfixture.good.alpha.mode;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/** {@code mode=first}, in the knob's package. */
@ConditionalOnProperty(name = "perflab.alpha.mode", havingValue = "first")
public class FirstMode {
}
