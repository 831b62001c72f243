package dev.perflab.archfixture.bad.alpha.after;

import dev.perflab.archfixture.bad.alpha.AlphaApi;

public class FastAlpha implements AlphaApi {

    @Override
    public int value() {
        return 2;
    }
}
