package dev.perflab.archfixture.bad.beta;

import dev.perflab.archfixture.bad.alpha.AlphaApi;

/** Breaks "features do not depend on each other". */
public final class BetaService {

    private BetaService() {
    }

    public static int run(AlphaApi alpha) {
        return alpha.value();
    }
}
