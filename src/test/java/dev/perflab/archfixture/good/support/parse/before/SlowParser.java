package dev.perflab.archfixture.good.support.parse.before;

public class SlowParser {

    public int parse(String value) {
        return Integer.parseInt(value.trim());
    }
}
