package dev.perflab.archfixture.good.lab;

import dev.perflab.archfixture.good.alpha.AlphaApi;

/** The lab may use a feature's top-level package. */
public final class LabTool {

    private LabTool() {
    }

    public static int run(AlphaApi alpha) {
        return alpha.value();
    }
}
