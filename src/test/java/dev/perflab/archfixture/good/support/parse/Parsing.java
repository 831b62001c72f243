package dev.perflab.archfixture.good.support.parse;

import dev.perflab.archfixture.good.support.parse.before.SlowParser;

/** A support package with its own variants, used inside it. */
public final class Parsing {

    private Parsing() {
    }

    public static int parse(String value) {
        return new SlowParser().parse(value);
    }
}
