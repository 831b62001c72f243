package dev.perflab.support.parse;

import dev.perflab.support.parse.after.LeanBearerTokenResolver;
import dev.perflab.support.parse.after.LeanIdempotencyKeyParser;
import dev.perflab.support.parse.before.NaiveBearerTokenResolver;
import dev.perflab.support.parse.before.NaiveIdempotencyKeyParser;

/**
 * Runs both variants of both header parsers hot, each from a call site of its own, for the inlining check
 * ({@code scripts/inlining-check.sh}, {@code HeaderParsingInliningTest}): run it with
 * {@code -Xbatch -XX:+UnlockDiagnosticVMOptions -XX:+PrintCompilation -XX:+PrintInlining} and C2 says, for each
 * call of a parse method, whether it inlined it. Argument: the number of iterations (default 30,000, well
 * past C2's compile threshold).
 */
public final class HeaderParsingDriver {

    private HeaderParsingDriver() {
    }

    public static void main(String[] args) {
        int iterations = args.length > 0 ? Integer.parseInt(args[0]) : 30_000;
        String authorization = SampleHeaders.AUTHORIZATION;
        String[] keys = SampleHeaders.idempotencyKeys(16);
        NaiveIdempotencyKeyParser naiveKeys = new NaiveIdempotencyKeyParser();
        LeanIdempotencyKeyParser leanKeys = new LeanIdempotencyKeyParser();
        long sink = 0;
        for (int i = 0; i < iterations; i++) {
            String key = keys[i & 15];
            sink += naiveBearer(authorization) + leanBearer(authorization);
            sink += naiveKey(naiveKeys, key) ^ leanKey(leanKeys, key);
        }
        System.out.println("HeaderParsingDriver: " + iterations + " iterations, sink " + sink);
    }

    static int naiveBearer(String header) {
        return NaiveBearerTokenResolver.parse(header).length();
    }

    static int leanBearer(String header) {
        return LeanBearerTokenResolver.parse(header).length();
    }

    static long naiveKey(NaiveIdempotencyKeyParser parser, String key) {
        return parser.parse(key).getLeastSignificantBits();
    }

    static long leanKey(LeanIdempotencyKeyParser parser, String key) {
        return parser.parse(key).getLeastSignificantBits();
    }
}
