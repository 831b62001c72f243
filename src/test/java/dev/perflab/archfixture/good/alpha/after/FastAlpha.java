package dev.perflab.archfixture.good.alpha.after;

import dev.perflab.archfixture.good.alpha.AlphaApi;
import dev.perflab.archfixture.good.alpha.before.SlowAlpha;

/** One variant may use the other: both sit inside the feature. */
public class FastAlpha implements AlphaApi {

    @Override
    public int value() {
        return new SlowAlpha().value();
    }
}
