package dev.perflab.archfixture.good.alpha;

import dev.perflab.archfixture.good.support.Helper;
import dev.perflab.archfixture.good.support.parse.Parsing;

/** A feature's top-level package: its variants' interface, which the lab may use. */
public interface AlphaApi {

    int value();

    default int plusOne(String number) {
        return Parsing.parse(number) + Helper.one();
    }
}
