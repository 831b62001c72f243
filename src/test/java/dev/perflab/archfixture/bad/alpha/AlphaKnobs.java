package dev.perflab.archfixture.bad.alpha;

import dev.perflab.archfixture.FixtureKnobs;

/** The feature's knobs: {@code mode} has three values, so a package of its own, {@code alpha.mode}. */
@FixtureKnobs("perflab.alpha")
public record AlphaKnobs(Mode mode) {

    public enum Mode { FIRST, SECOND, THIRD }
}
