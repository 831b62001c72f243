package dev.perflab.archfixture.good.support;

/** Shared code: any feature may use it. */
public final class Helper {

    private Helper() {
    }

    public static int one() {
        return 1;
    }
}
