package dev.perflab.archfixture.bad.alpha;

public interface AlphaApi {

    int value();
}
