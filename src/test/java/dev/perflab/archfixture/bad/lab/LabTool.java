package dev.perflab.archfixture.bad.lab;

import dev.perflab.archfixture.bad.alpha.after.FastAlpha;

/** Breaks "variants are used only inside their package": the lab may use alpha's top level, not alpha.after. */
public final class LabTool {

    private LabTool() {
    }

    public static int run() {
        return new FastAlpha().value();
    }
}
