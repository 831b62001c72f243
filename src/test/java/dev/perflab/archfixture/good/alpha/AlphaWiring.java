package dev.perflab.archfixture.good.alpha;

import dev.perflab.archfixture.good.alpha.after.FastAlpha;
import dev.perflab.archfixture.good.alpha.before.SlowAlpha;

/** The feature picks its variant inside its own package. */
public final class AlphaWiring {

    private AlphaWiring() {
    }

    public static AlphaApi pick(boolean fast) {
        return fast ? new FastAlpha() : new SlowAlpha();
    }
}
