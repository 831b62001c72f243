package dev.perflab.archfixture.bad;

import dev.perflab.archfixture.bad.lab.LabTool;

/** Breaks "nothing depends on the lab". */
public final class BadApplication {

    private BadApplication() {
    }

    public static int run() {
        return LabTool.run();
    }
}
