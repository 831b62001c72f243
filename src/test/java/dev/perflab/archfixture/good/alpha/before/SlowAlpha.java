package dev.perflab.archfixture.good.alpha.before;

import dev.perflab.archfixture.good.alpha.AlphaApi;

public class SlowAlpha implements AlphaApi {

    @Override
    public int value() {
        return 1;
    }
}
