package dev.perflab.archfixture.bad.support;

import dev.perflab.archfixture.bad.alpha.AlphaApi;

/** Breaks "support depends on no feature". */
public final class Helper {

    private Helper() {
    }

    public static int run(AlphaApi alpha) {
        return alpha.value();
    }
}
