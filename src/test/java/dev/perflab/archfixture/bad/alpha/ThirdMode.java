package dev.perflab.archfixture.bad.alpha;

import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;

/** {@code mode=third}, misplaced: in the feature's root, not in {@code alpha.mode}. */
@ConditionalOnProperty(name = "perflab.alpha.mode", havingValue = "third")
public class ThirdMode {
}
